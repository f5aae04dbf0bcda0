package io.argus.collector.ingest;

import io.argus.protocol.Frame;

/**
 * A validated frame on its way to the router, with what to run once its content has been handed on (the sink's
 * callback; for a heartbeat, once routed). Acknowledges the frame to an agent that asked for acknowledgements.
 */
record AcceptedFrame(Frame frame, Runnable handedOn) {
}
