package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.Source;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Work for the writer thread. */
sealed interface WriteTask {

    /** Rows this task adds to the tables (its weight in the bounded queue). */
    int rows();

    /** A batch of data; {@code handedOn} runs once the cycle that holds it has ended. */
    sealed interface Data extends WriteTask {
        Runnable handedOn();
    }

    record Spans(Source source, SpanBatch batch, Runnable handedOn) implements Data {
        Spans(Source source, SpanBatch batch) {
            this(source, batch, IngestSink.NO_CALLBACK);
        }

        @Override
        public int rows() {
            return batch.getSpansCount();
        }
    }

    record Metrics(Source source, MetricBatch batch, Runnable handedOn) implements Data {
        @Override
        public int rows() {
            return batch.getCallsCount() + batch.getJvmCount();
        }
    }

    record Agents(List<AgentInfo> agents) implements WriteTask {
        @Override
        public int rows() {
            return 0;
        }
    }

    /** Completes once everything queued before it is written and committed. */
    record Flush(CompletableFuture<Void> done) implements WriteTask {
        @Override
        public int rows() {
            return 0;
        }
    }

    /** Last task: the writer commits, checkpoints and exits. */
    record Stop() implements WriteTask {
        @Override
        public int rows() {
            return 0;
        }
    }
}
