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

    for (Key<?> key : Keys.ALL) {
      String name = key == Keys.DATASOURCES ? "sluice.datasources" : key.name();
      assertThat(properties).as(name).containsKey(name);
      assertThat(properties.get(name).get("description").asText()).isNotBlank();
    }
    assertThat(properties).hasSize(Keys.ALL.size());
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
