package io.argus.springboot;

/**
 * Spring Boot 3.5 (Spring Framework 6.2): the front service on Tomcat 10.1, and on Jetty 12.0 with
 * virtual threads (where RestClient's default request factory is Jetty's client); the back service on
 * Undertow with the DispatcherServlet on {@code /mvc/*}.
 */
class SpringBoot3IT extends AbstractSpringBootIT {

    SpringBoot3IT() {
        super("boot3", Container.UNDERTOW, "/mvc", "--spring.mvc.servlet.path", Container.JETTY);
    }
}
