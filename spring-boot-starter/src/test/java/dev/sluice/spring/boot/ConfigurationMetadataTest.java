package dev.sluice.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.internal.config.Key;
import dev.sluice.internal.config.Keys;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The IDE metadata in the jar lists every key of the driver's table (read here directly, not
 * through the public {@code Setting} the generator uses), with its default where it has one.
 */
class ConfigurationMetadataTest {

  private static Map<String, JsonNode> properties() throws IOException {
    try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream(
        "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("written by the build (exec:java in process-classes)").isNotNull();
      Map<String, JsonNode> byName = new HashMap<>();
      new ObjectMapper().readTree(in).get("properties")
          .forEach(p -> byName.put(p.get("name").asText(), p));
      return byName;
    }
  }

  @Test
  void metadata_hasEveryKeyOfTheTable() throws IOException {
    Map<String, JsonNode> properties = properties();

    int listed = 0;
    for (Key<?> key : Keys.ALL) {
      String name = key == Keys.DATASOURCES ? "sluice.datasources" : key.name();
      if (key.driverOnly()) {
        assertThat(properties).as("driver-only " + name).doesNotContainKey(name);
        continue;
      }
      assertThat(properties).as(name).containsKey(name);
      assertThat(properties.get(name).get("description").asText()).isNotBlank();
      listed++;
      if (key.nestedName() != null) {
        assertThat(properties).as(key.nestedName()).containsKey(key.nestedName());
        listed++;
      }
    }
    assertThat(properties).hasSize(listed);
  }

  /**
   * Issue 21, item 17: the metadata listed the driver-only {@code sluice.pool-auto-commit}, and
   * offered no value for {@code instances: redis} or {@code concurrency: auto}.
   */
  @Test
  void metadata_noDriverOnlyKey_valueHintsForTheWordsANumberTakes() throws IOException {
    Map<String, JsonNode> hints = new HashMap<>();
    try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream(
        "/META-INF/spring-configuration-metadata.json")) {
      new ObjectMapper().readTree(in).get("hints")
          .forEach(h -> hints.put(h.get("name").asText(), h.get("values")));
    }

    assertThat(properties()).doesNotContainKey("sluice.pool-auto-commit");
    for (String name : new String[] {"sluice.instances", "sluice.instances.count"}) {
      assertThat(hints.get(name).toString()).as(name).contains("\"redis\"");
    }
    for (String name : new String[] {"sluice.concurrency", "sluice.concurrency.limit"}) {
      assertThat(hints.get(name).toString()).as(name).contains("\"auto\"");
    }
    assertThat(hints.get("sluice.scope").toString()).contains("statement", "connection");
  }

  @Test
  void metadata_defaultsAndTypes_asTheTableSays() throws IOException {
    Map<String, JsonNode> properties = properties();

    assertThat(properties.get("sluice.summary-interval").get("defaultValue").asText())
        .isEqualTo("10s");
    assertThat(properties.get("sluice.summary-interval").get("type").asText())
        .isEqualTo("java.time.Duration");
    assertThat(properties.get("sluice.enabled").get("defaultValue").asBoolean()).isTrue();
    assertThat(properties.get("sluice.instances.assumed").get("defaultValue").asInt())
        .isEqualTo(10);
    assertThat(properties.get("sluice.scope").get("defaultValue").asText())
        .isEqualTo("statement");
    assertThat(properties.get("sluice.budget").has("defaultValue")).isFalse();
    assertThat(properties.get("sluice.budget").get("description").asText())
        .endsWith("Default: required.");
  }
}
