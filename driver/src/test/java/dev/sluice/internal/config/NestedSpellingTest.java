package dev.sluice.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, item 9: a key that is also the prefix of others ({@code sluice.redis} beside
 * {@code sluice.redis.timeout}) could not be written in nested YAML, where one name cannot hold a
 * value and children at once (SnakeYAML's {@code DuplicateKeyException}). Each such key now has a
 * second spelling one level down, and the flat one keeps working.
 */
class NestedSpellingTest {

  @Test
  void everyKeyThatIsAPrefix_hasANestedSpellingThatIsNoOtherKey() {
    for (Key<?> key : Keys.ALL) {
      boolean prefix = Keys.ALL.stream().anyMatch(other -> other.name().startsWith(key.name() + ".")
          || other.nestedName() != null && other.nestedName().startsWith(key.name() + "."));
      assertThat(key.nestedName() != null).as(key.name() + " is a prefix of another key")
          .isEqualTo(prefix);
      if (key.nestedName() != null) {
        assertThat(key.nestedName()).startsWith(key.name() + ".");
        assertThat(Keys.ALL).noneMatch(other -> other.name().equals(key.nestedName())
            || other.name().startsWith(key.nestedName() + "."));
      }
    }
  }

  @Test
  void nestedSpellings_parseAsTheFlatOnes() {
    Settings settings = Settings.parse(Map.of("sluice.budget", "100",
        "sluice.redis.uri", "redis://cache:6379", "sluice.redis.timeout", "300ms",
        "sluice.instances.count", "redis", "sluice.instances.assumed", "4",
        "sluice.concurrency.limit", "auto", "sluice.concurrency.max", "20",
        "sluice.circuit-breaker.name", "productCache"));

    assertThat(settings.get(Keys.REDIS)).isEqualTo("redis://cache:6379");
    assertThat(settings.get(Keys.INSTANCES).fromRedis()).isTrue();
    assertThat(settings.get(Keys.CONCURRENCY).auto()).isTrue();
    assertThat(settings.get(Keys.CIRCUIT_BREAKER)).isEqualTo("productCache");
    assertThat(Settings.parse(Map.of("sluice.instances", "4")).get(Keys.INSTANCES).count())
        .as("the flat spelling still works").isEqualTo(4);
  }

  @Test
  void bothSpellingsGiven_isAnErrorNamingBoth() {
    Properties both = new Properties();
    both.setProperty("sluice.redis", "redis://a:6379");
    both.setProperty("sluice.redis.uri", "redis://a:6379");

    assertThatThrownBy(() -> Settings.parse(both)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.redis and sluice.redis.uri are two spellings of one setting (the"
            + " second for nested YAML); give one");
  }

  @Test
  void badValueUnderTheNestedSpelling_namesThatSpelling() {
    assertThatThrownBy(() -> Settings.parse(Map.of("sluice.instances.count", "some")))
        .hasMessage("sluice.instances.count must be a positive integer or `redis`, but was"
            + " \"some\"");
    assertThatThrownBy(() -> Settings.parse(Map.of("sluice.redis.uri", "redis://u:pw@h:1/x/y")))
        .hasMessageStartingWith("sluice.redis.uri ").hasMessageNotContaining("pw");
  }

  @Test
  void nestedSpellingInOtherCase_isRefusedWithItsRightSpelling() {
    assertThatThrownBy(() -> Settings.find("SLUICE.REDIS.URI"))
        .hasMessageContaining("write sluice.redis.uri, in lower case");
  }
}
