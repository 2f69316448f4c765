package dev.sluice.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.internal.config.Keys;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SluiceUrlTest {

  @Test
  void parse_urlAndProperties_splitsOursFromTheRealDriversSettings() {
    Properties info = new Properties();
    info.setProperty("user", "app");
    info.setProperty("sluice.instances", "4");

    SluiceUrl parsed = SluiceUrl.parse("jdbc:sluice:postgresql://db:5432/app?sluice.budget=100",
        info);

    assertThat(parsed.url()).isEqualTo("jdbc:postgresql://db:5432/app");
    assertThat(parsed.properties()).containsOnlyKeys("user");
    assertThat(parsed.settings().get(Keys.BUDGET)).isEqualTo(100.0);
    assertThat(parsed.settings().get(Keys.INSTANCES).count()).isEqualTo(4);
    assertThat(parsed.settings().get(Keys.NAME)).isEqualTo("db-5432-app");
    assertThat(info).containsKey("sluice.instances"); // the caller's properties are not changed
  }

  @Test
  void parse_defaultedProperties_areSeenToo() {
    Properties defaults = new Properties();
    defaults.setProperty("sluice.budget", "7");
    Properties info = new Properties(defaults);

    SluiceUrl parsed = SluiceUrl.parse("jdbc:sluice:h2:mem:x", info);

    assertThat(parsed.settings().get(Keys.BUDGET)).isEqualTo(7.0);
    assertThat(parsed.properties().stringPropertyNames()).isEmpty();
  }

  @Test
  void parse_sameKeyBothWaysWithDifferentValues_isAnErrorNamingBoth() {
    Properties info = new Properties();
    info.setProperty("sluice.budget", "200");

    assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:h2:mem:x;sluice.budget=100", info))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sluice.budget is given twice with different values")
        .hasMessageContaining("\"100\" in the URL").hasMessageContaining("\"200\" in the");
  }

  @Test
  void parse_sameKeyBothWaysWithOneValue_isAccepted() {
    Properties info = new Properties();
    info.setProperty("sluice.budget", "100");

    assertThat(SluiceUrl.parse("jdbc:sluice:h2:mem:x;sluice.budget=100", info).settings()
        .get(Keys.BUDGET)).isEqualTo(100.0);
  }

  @Test
  void parse_redisPasswordInConflict_isMasked() {
    Properties info = new Properties();
    info.setProperty("sluice.redis", "redis://u:hunter2@cache:6379");

    assertThatThrownBy(() -> SluiceUrl.parse(
        "jdbc:sluice:h2:mem:x;sluice.redis=redis://u:swordfish@cache:6379", info))
        .hasMessageNotContaining("hunter2").hasMessageNotContaining("swordfish");
  }

  @Test
  void parse_doubledPrefix_isAnError() {
    assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:sluice:h2:mem:x", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbc:sluice:sluice:");
    assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:jdbc:h2:mem:x", null))
        .hasMessageContaining("without its jdbc:");
  }

  @Test
  void parse_connectionScope_isRefusedPointingToTheDataSource() {
    assertThatThrownBy(() -> SluiceUrl.parse(
        "jdbc:sluice:h2:mem:x;sluice.budget=1;sluice.scope=connection", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.scope must be `statement` in a jdbc:sluice: URL, but was"
            + " \"connection\"")
        .hasMessageContaining("RateLimitedDataSource");
  }

  @Test
  void parse_badValue_namesKeyAndValue() {
    assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:h2:mem:x;sluice.budget=-5", null))
        .hasMessage("sluice.budget must be a positive number, but was \"-5\"");
  }

  @Test
  void parse_unknownKey_namesItAndTheNearest() {
    assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:h2:mem:x;sluice.budgte=5", null))
        .hasMessageStartingWith("sluice.budgte is not a Sluice setting; did you mean"
            + " sluice.budget?");
  }

  /** Issue 10 item 12: these spellings went to the database's driver unseen. */
  @Test
  void parse_sluiceKeyInOtherCaseOrWithBlanksInProperties_isRefusedNamingTheRightSpelling() {
    for (String key : new String[] {"SLUICE.INSTANCES", " sluice.instances", "sluice.instances "}) {
      Properties info = new Properties();
      info.setProperty(key, "100");

      assertThatThrownBy(() -> SluiceUrl.parse("jdbc:sluice:h2:mem:x;sluice.budget=5", info))
          .as(key).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("\"" + key + "\" is not how Sluice's keys are spelled: write"
              + " sluice.instances, in lower case and without spaces");
    }
  }

  @Test
  void parse_sluiceKeyAfterABlankInTheUrl_isRefusedNotPassedOn() {
    assertThatThrownBy(() -> SluiceUrl.parse(
        "jdbc:sluice:postgresql://db/app?sluice.budget=5&\tsluice.instances=100", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("\"\tsluice.instances\" is not how Sluice's keys are spelled");
  }

  @Test
  void parse_valueWithBlanksAroundIt_isRefused() {
    assertThatThrownBy(() -> SluiceUrl.parse(
        "jdbc:sluice:postgresql://db/app?sluice.budget= 5", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.budget must be a positive number, without spaces around it, but was"
            + " \" 5\"");
  }
}
