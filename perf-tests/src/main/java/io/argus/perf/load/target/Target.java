package io.argus.perf.load.target;

import java.io.IOException;
import java.util.List;

/**
 * An application the overhead suite measures: one or more JVMs, a readiness check for each, and
 * the request the load phases send. The harness starts the processes of a {@link LaunchPlan} in
 * order, adding the scenario's JVM options (the agent flags) to every instrumented process, times
 * each from spawn to its first successful readiness response, then calls {@link #afterReady}.
 * It stops the processes itself, in reverse order. Implementations: {@link SampleTarget} and
 * {@code io.argus.perf.load.druid.DruidTarget}.
 */
public interface Target {

    /** The name given to {@code --target}. */
    String name();

    /** One line for the report. */
    String description();

    /**
     * Plans one fresh launch: chooses free ports, and lists the processes in start order and the
     * request to load the target with. Called once per launch.
     */
    LaunchPlan plan(TargetEnv env) throws IOException;

    /**
     * Runs once every process answered its readiness check, before any measurement: checks that
     * the whole chain works (and, for Druid, would ingest the sample data). Throws when it does not.
     */
    default void afterReady(LaunchPlan plan, TargetEnv env) throws Exception {
    }

    /** The service names the agents are given, for the report (all processes, forked ones too). */
    default List<String> serviceNames() {
        return List.of("front", "back");
    }

    /** The services a load request's trace must cross, in order, each a client -> server hop. */
    default List<String> tracedServices() {
        return List.of("front", "back");
    }

    /** Text the root span's name of a load request's trace contains (other roots are background work). */
    default String tracedRootName() {
        return "/front/";
    }
}
