package io.argus.perf.load.target;

import io.argus.perf.harness.http.RequestSpec;

import java.util.List;

/**
 * One launch of a target.
 *
 * @param processes   in start order; each is started once the previous one is ready
 * @param loadRequest what the closed loop and Gatling send (to the first hop)
 * @param smokeRequest sent once after start-up to check the whole chain; may equal loadRequest
 */
public record LaunchPlan(List<ProcessSpec> processes, RequestSpec loadRequest, RequestSpec smokeRequest) {
}
