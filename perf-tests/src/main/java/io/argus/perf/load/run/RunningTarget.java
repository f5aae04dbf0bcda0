package io.argus.perf.load.run;

import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.target.LaunchPlan;

import java.util.ArrayList;
import java.util.List;

/** The processes of one launch, in start order, and how long each took to be ready. */
public final class RunningTarget implements AutoCloseable {

    private final LaunchPlan plan;
    private final List<ManagedProcess> processes = new ArrayList<>();
    private final List<ProcessStartup> startups = new ArrayList<>();

    RunningTarget(LaunchPlan plan) {
        this.plan = plan;
    }

    void add(ManagedProcess p) {
        processes.add(p);
    }

    public LaunchPlan plan() {
        return plan;
    }

    public List<ManagedProcess> processes() {
        return processes;
    }

    public List<ProcessStartup> startups() {
        return startups;
    }

    /** Stops every process, last started first. */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop(5000);
        }
    }
}
