package io.argus.plugin.servlet.javax;

import javax.servlet.ServletRequest;
import javax.servlet.ServletRequestWrapper;

/** The container's own request object under any wrappers: where this plugin's state lives. A helper class. */
public final class ContainerRequest {

    private ContainerRequest() {
    }

    public static ServletRequest of(ServletRequest request) {
        ServletRequest unwrapped = request;
        while (unwrapped instanceof ServletRequestWrapper) {
            ServletRequest inner = ((ServletRequestWrapper) unwrapped).getRequest();
            if (inner == null || inner == unwrapped) {
                break;
            }
            unwrapped = inner;
        }
        return unwrapped;
    }
}
