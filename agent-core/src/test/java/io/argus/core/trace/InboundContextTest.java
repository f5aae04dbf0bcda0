package io.argus.core.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class InboundContextTest {

    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void readsSampledTraceparent() {
        assertThat(InboundContext.w3cDecision(VALID)).isEqualTo(InboundContext.SAMPLED);
        RecordedSpan span = new RecordedSpan(RecordedSpan.KIND_SERVER);
        InboundContext.w3cInto(VALID, span);
        assertThat(TraceIds.toHex(span.traceIdHigh(), span.traceIdLow())).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(TraceIds.toHex(span.parentSpanId())).isEqualTo("00f067aa0ba902b7");
    }

    @Test
    void readsUnsampledTraceparent() {
        assertThat(InboundContext.w3cDecision("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
                .isEqualTo(InboundContext.NOT_SAMPLED);
    }

    @Test
    void acceptsFutureVersionWithExtraFields() {
        assertThat(InboundContext.w3cDecision("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"))
                .isEqualTo(InboundContext.SAMPLED);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {
            "garbage",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",          // no flags
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",       // uppercase
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",       // zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",       // zero span id
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // forbidden version
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",     // version 00 must be exact
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",       // bad separator
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",       // not hex
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",      // future version, bad tail
    })
    void rejectsMalformedTraceparent(String header) {
        assertThat(InboundContext.w3cDecision(header)).isEqualTo(InboundContext.INVALID);
    }

    @Test
    void readsB3SingleHeader() {
        String header = "80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1-05e3ac9a4f6e3b90";
        assertThat(InboundContext.b3Decision(header)).isEqualTo(InboundContext.SAMPLED);
        RecordedSpan span = new RecordedSpan(RecordedSpan.KIND_SERVER);
        InboundContext.b3Into(header, span);
        assertThat(TraceIds.toHex(span.traceIdHigh(), span.traceIdLow())).isEqualTo("80f198ee56343ba864fe8b2a57d3eff7");
        assertThat(TraceIds.toHex(span.parentSpanId())).isEqualTo("e457b5a2e4d86bd1");
    }

    @Test
    void readsB3With64BitTraceIdAndDeferredDecision() {
        String header = "64fe8b2a57d3eff7-e457b5a2e4d86bd1";
        assertThat(InboundContext.b3Decision(header)).isEqualTo(InboundContext.DEFER);
        RecordedSpan span = new RecordedSpan(RecordedSpan.KIND_SERVER);
        InboundContext.b3Into(header, span);
        assertThat(span.traceIdHigh()).isZero();
        assertThat(TraceIds.toHex(span.traceIdLow())).isEqualTo("64fe8b2a57d3eff7");
    }

    @Test
    void readsB3SamplingOnlyAndMultiHeaderFlags() {
        assertThat(InboundContext.b3Decision("0")).isEqualTo(InboundContext.NOT_SAMPLED);
        assertThat(InboundContext.b3Decision("1")).isEqualTo(InboundContext.SAMPLED_NO_IDS);
        assertThat(InboundContext.b3Decision("d")).isEqualTo(InboundContext.SAMPLED_NO_IDS);
        assertThat(InboundContext.b3Decision("64fe8b2a57d3eff7-e457b5a2e4d86bd1-true")).isEqualTo(InboundContext.SAMPLED);
        assertThat(InboundContext.b3Decision("64fe8b2a57d3eff7-e457b5a2e4d86bd1-0")).isEqualTo(InboundContext.NOT_SAMPLED);
        assertThat(InboundContext.b3Decision("64fe8b2a57d3eff7-e457b5a2e4d86bd1-d")).isEqualTo(InboundContext.SAMPLED);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"x", "2", "64fe8b2a57d3eff-e457b5a2e4d86bd1-1", "64fe8b2a57d3eff7-e457b5a2e4d86bd-1",
            "64fe8b2a57d3eff7-e457b5a2e4d86bd1-7", "64fe8b2a57d3eff7-e457b5a2e4d86bd1-1-abc",
            "0000000000000000-e457b5a2e4d86bd1-1", "64fe8b2a57d3eff7-0000000000000000-1", "zzfe8b2a57d3eff7-e457b5a2e4d86bd1"})
    void rejectsMalformedB3(String header) {
        assertThat(InboundContext.b3Decision(header)).isEqualTo(InboundContext.INVALID);
    }
}
