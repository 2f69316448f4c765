package dev.sluice.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application whose auto-configured HikariCP pool is wrapped by Sluice.
 *
 * <pre>  mvn -q -pl examples/spring-boot -am spring-boot:run</pre>
 */
@SpringBootApplication
public class SpringBootExample {

  /**
   * Starts the application.
   *
   * @param args Spring Boot's arguments
   */
  public static void main(String[] args) {
    SpringApplication.run(SpringBootExample.class, args);
  }
}
