package io.argus.springboot;

/**
 * Spring Boot 4.0 (Spring Framework 7.0): the front service on Tomcat 11, also with virtual threads;
 * the back service on Jetty 12.1 under the context path {@code /shop}.
 */
class SpringBoot4IT extends AbstractSpringBootIT {

    SpringBoot4IT() {
        super("boot4", Container.JETTY, "/shop", "--server.servlet.context-path", Container.TOMCAT);
    }
}
