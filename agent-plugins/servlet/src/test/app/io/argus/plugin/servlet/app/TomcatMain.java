package io.argus.plugin.servlet.app;

import io.argus.testing.app.ClassVisibility;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

import java.io.File;
import java.nio.file.Files;

/** The servlets of {@link Endpoints} on embedded Tomcat, with one worker thread. */
public final class TomcatMain {

    private TomcatMain() {
    }

    public static void main(String[] args) throws Exception {
        File base = Files.createTempDirectory("argus-servlet-tomcat").toFile();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.getAbsolutePath());
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxThreads", "1");
        tomcat.getService().addConnector(connector);
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", base.getAbsolutePath());
        for (Endpoints.Endpoint endpoint : Endpoints.all()) {
            Wrapper wrapper = Tomcat.addServlet(context, endpoint.name, endpoint.servlet);
            wrapper.setAsyncSupported(true);
            for (String pattern : endpoint.patterns) {
                context.addServletMappingDecoded(pattern, endpoint.name);
            }
        }
        tomcat.start();
        ClassVisibility.print(TomcatMain.class);
        System.out.println("READY port=" + connector.getLocalPort() + " server=" + org.apache.catalina.util.ServerInfo.getServerInfo());
        tomcat.getServer().await();
    }
}
