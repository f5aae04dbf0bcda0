package io.argus.plugin.servlet.app;

import io.argus.testing.app.ClassVisibility;
import io.undertow.Undertow;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.ServletInfo;
import io.undertow.servlet.util.ImmediateInstanceFactory;

import javax.servlet.Servlet;
import java.net.InetSocketAddress;

/** The servlets of {@link Endpoints} on Undertow (undertow-servlet), with one worker thread. */
public final class UndertowMain {

    private UndertowMain() {
    }

    public static void main(String[] args) throws Exception {
        DeploymentInfo deployment = Servlets.deployment()
                .setClassLoader(UndertowMain.class.getClassLoader())
                .setContextPath("/")
                .setDeploymentName("argus-test");
        for (Endpoints.Endpoint endpoint : Endpoints.all()) {
            ServletInfo info = Servlets.servlet(endpoint.name, endpoint.servlet.getClass(),
                    new ImmediateInstanceFactory<Servlet>(endpoint.servlet));
            info.setAsyncSupported(true);
            for (String pattern : endpoint.patterns) {
                info.addMapping(pattern);
            }
            deployment.addServlet(info);
        }
        DeploymentManager manager = Servlets.defaultContainer().addDeployment(deployment);
        manager.deploy();
        Undertow server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setIoThreads(1)
                .setWorkerThreads(1)
                .setHandler(manager.start())
                .build();
        server.start();
        int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
        ClassVisibility.print(UndertowMain.class);
        System.out.println("READY port=" + port + " server=undertow/" + io.undertow.Version.getVersionString());
    }
}
