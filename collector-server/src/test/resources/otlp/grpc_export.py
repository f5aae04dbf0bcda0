"""Exports one server span and one histogram point with the OpenTelemetry Python SDK's default OTLP exporter
(gRPC), configured the way users do: through OTEL_EXPORTER_OTLP_ENDPOINT. Prints the trace id."""
from opentelemetry import metrics, trace
from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter
from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.trace import SpanKind, Status, StatusCode

resource = Resource.create({"service.name": "py-grpc", "service.instance.id": "py-1"})
tracer_provider = TracerProvider(resource=resource)
tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
meter_provider = MeterProvider(resource=resource,
                               metric_readers=[PeriodicExportingMetricReader(OTLPMetricExporter(),
                                                                             export_interval_millis=3_600_000)])

tracer = tracer_provider.get_tracer("argus.python.test")
with tracer.start_as_current_span("GET /py/orders/{id}", kind=SpanKind.SERVER, attributes={
        "http.request.method": "GET", "http.route": "/py/orders/{id}", "http.response.status_code": 503}) as span:
    span.set_status(Status(StatusCode.ERROR, "backend down"))
    trace_id = format(span.get_span_context().trace_id, "032x")

duration = meter_provider.get_meter("argus.python.test").create_histogram("http.server.request.duration", unit="s")
duration.record(0.025, {"http.request.method": "GET", "http.route": "/py/items", "http.response.status_code": 200})

ok = tracer_provider.force_flush(20_000) and meter_provider.force_flush(20_000)
tracer_provider.shutdown()
meter_provider.shutdown()
print("trace_id=" + trace_id)
print("flushed=" + str(ok))
