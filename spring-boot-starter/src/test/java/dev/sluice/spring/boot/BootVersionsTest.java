package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The starter's tests run the driver on the libraries Spring Boot manages, not on those the
 * driver is built with (they differ: Jedis 6 against 5, HikariCP 6 against 7). The pom re-pins
 * them by hand; this compares each jar on the class path with Boot's own BOM, so that a Boot
 * upgrade without the matching pins fails here.
 */
class BootVersionsTest {

  @ParameterizedTest
  @CsvSource({
      "jedis.version, redis.clients.jedis.Jedis",
      "hikaricp.version, com.zaxxer.hikari.HikariDataSource",
      "micrometer.version, io.micrometer.core.instrument.MeterRegistry"})
  void classPath_hasTheVersionBootManages(String property, Class<?> type) throws Exception {
    String managed = managedVersion(property);
    String jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getFileName().toString();

    assertThat(jar).as(type.getName() + " from Boot's " + property)
        .endsWith("-" + managed + ".jar");
  }

  private static String managedVersion(String property) throws IOException {
    String bom = Files.readString(Path.of(System.getProperty("test.spring-boot-bom")));
    Matcher m = Pattern.compile("<" + Pattern.quote(property) + ">([^<]+)<").matcher(bom);
    assertThat(m.find()).as(property + " in Boot's BOM").isTrue();
    return m.group(1);
  }
}
