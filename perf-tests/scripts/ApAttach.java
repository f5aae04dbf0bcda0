import com.sun.tools.attach.VirtualMachine;

/**
 * Loads async-profiler's native library into a running JVM with an option string passed as it is
 * ({@code jcmd <pid> JVMTI.agent_load} splits options at '='):
 *
 * <pre>java ApAttach.java PID /path/libasyncProfiler.so start,event=cpu,interval=1000000
 * java ApAttach.java PID /path/libasyncProfiler.so stop,file=/tmp/x.collapsed,collapsed</pre>
 */
public final class ApAttach {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: ApAttach PID LIBRARY OPTIONS");
            System.exit(2);
        }
        VirtualMachine vm = VirtualMachine.attach(args[0]);
        try {
            vm.loadAgentPath(args[1], args[2]);
        } finally {
            vm.detach();
        }
    }
}
