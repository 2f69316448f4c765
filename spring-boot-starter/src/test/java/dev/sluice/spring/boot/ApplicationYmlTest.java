package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.RateLimitedDataSource;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import javax.management.ObjectName;
import io.github.resilience4j.springboot3.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.io.FileSystemResource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import redis.clients.jedis.Jedis;

/**
 * The complete {@code application.yml} of {@code docs/spring-boot.md}, loaded as written (only
 * the Redis address and the budget names changed) in a Spring Boot application with two pools.
 *
 * <p>Issue 21, item 9: {@code sluice.redis} beside {@code sluice.redis.timeout} (and three more
 * such pairs) could not be nested in YAML: SnakeYAML's {@code DuplicateKeyException}. Item 10:
 * closing the context was said to leave Sluice's threads and MBeans behind.
 */
class ApplicationYmlTest {
  private static final String MARKER = "<!-- application.yml: loaded by ApplicationYmlTest -->";

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    HikariDataSource dataSource() {
      return Fixtures.pool("yml-main");
    }

    @Bean
    HikariDataSource reports() {
      return Fixtures.pool("yml-reports");
    }
  }

  @Test
  void docsApplicationYml_startsWithEveryKeyApplied_andClosingLeavesNoThreadOrMBean()
      throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    String main = "yml-" + id;
    String reports = "yml-reports-" + id;
    try (EmbeddedRedis redis = EmbeddedRedis.start(); Jedis operator = redis.client()) {
      Path yml = docsYaml(redis.uri(), main, reports);
      ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
          .web(WebApplicationType.NONE)
          .properties("spring.config.location=file:" + yml).run();
      try {
        Properties settings = context.getBean(SluiceDataSourceWrapper.class).properties()
            .forBean("dataSource");
        assertThat(settings).as("the nested spellings, read as the keys they stand for")
            .containsEntry("sluice.redis", redis.uri())
            .containsEntry("sluice.instances", "redis")
            .containsEntry("sluice.concurrency", "auto")
            .containsEntry("sluice.circuit-breaker", "productCache")
            .containsEntry("sluice.circuit-breaker.publish", "true")
            .containsEntry("sluice.concurrency.max", "10")
            .containsEntry("sluice.redis.timeout", "200ms");
        RateLimitedDataSource users = Fixtures.sluice(context, "dataSource");
        RateLimitedDataSource other = Fixtures.sluice(context, "reports");
        assertThat(users.stats().name()).isEqualTo(main);
        assertThat(users.stats().budget()).isEqualTo(5000);
        assertThat(other.stats().name()).isEqualTo(reports);
        assertThat(other.stats().budget()).isEqualTo(50);
        assertThat(users.management().getFlag()).as("sluice.flag=redis, published to")
            .startsWith("RedisBreakerFlag[" + main + " ");
        await().atMost(Duration.ofSeconds(10)).until(() ->
            operator.zcard("sluice:" + main + ":instances") == 1);

        context.getBean(CircuitBreakerRegistry.class).circuitBreaker("productCache")
            .transitionToOpenState();
        await().atMost(Duration.ofSeconds(10)).until(() ->
            "open".equals(operator.get("sluice:" + main + ":breaker")));
        assertThat(sluiceThreads(id)).as("working while open").isNotEmpty();
        assertThat(mbeans(id)).hasSize(2);
      } finally {
        context.close();
      }

      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(sluiceThreads(id)).as("Sluice's threads after the context closed")
              .isEmpty());
      assertThat(mbeans(id)).as("Sluice's MBeans after the context closed").isEmpty();
      await().atMost(Duration.ofSeconds(10)).until(() ->
          operator.zcard("sluice:" + main + ":instances") == 0);
    }
  }

  /** The README's shorter {@code application.yml}, nested the same way, starts too. */
  @Test
  void readmeApplicationYml_startsWithItsKeysApplied() throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    try (EmbeddedRedis redis = EmbeddedRedis.start()) {
      Path yml = docsYaml(Path.of("..", "README.md"), redis.uri(), "yml-readme-" + id, "-");
      Fixtures.runner()
          .withConfiguration(AutoConfigurations.of(CircuitBreakerAutoConfiguration.class))
          .withUserConfiguration(SluiceAutoConfigurationTest.OnePool.class)
          .withInitializer(context -> context.getEnvironment().getPropertySources()
              .addFirst(yaml(yml)))
          .run(context -> {
            assertThat(context).hasNotFailed();
            RateLimitedDataSource sluice = Fixtures.sluice(context);
            assertThat(sluice.stats().name()).isEqualTo("yml-readme-" + id);
            assertThat(context.getBean(SluiceDataSourceWrapper.class).properties()
                .forBean("dataSource")).containsEntry("sluice.instances", "redis")
                .containsEntry("sluice.concurrency", "auto")
                .containsEntry("sluice.circuit-breaker", "productCache");
          });
    }
  }

  private static org.springframework.core.env.PropertySource<?> yaml(Path file) {
    try {
      return new YamlPropertySourceLoader().load("readme", new FileSystemResource(file)).get(0);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path docsYaml(String redisUri, String main, String reports) throws IOException {
    return docsYaml(Path.of("..", "docs", "spring-boot.md"), redisUri, main, reports);
  }

  /** The block of a Markdown file after the marker, pointed at this test's Redis. */
  private static Path docsYaml(Path markdown, String redisUri, String main, String reports)
      throws IOException {
    String docs = Files.readString(markdown, StandardCharsets.UTF_8);
    int start = docs.indexOf("```yaml\n", docs.indexOf(MARKER)) + "```yaml\n".length();
    String yaml = docs.substring(start, docs.indexOf("```", start))
        .replace("redis://cache:6379", redisUri)
        .replace("name: users-db", "name: " + main)
        .replace("name: reports-db", "name: " + reports);
    Path file = Files.createTempFile("application", ".yml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    return file;
  }

  private static java.util.List<String> sluiceThreads(String id) {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(Thread::getName).filter(name -> name.startsWith("sluice") && name.contains(id))
        .toList();
  }

  private static java.util.Set<ObjectName> mbeans(String id) throws Exception {
    return ManagementFactory.getPlatformMBeanServer()
        .queryNames(new ObjectName("dev.sluice:type=RateLimitedDataSource,*"), null).stream()
        .filter(name -> name.toString().contains(id))
        .collect(java.util.stream.Collectors.toSet());
  }
}
