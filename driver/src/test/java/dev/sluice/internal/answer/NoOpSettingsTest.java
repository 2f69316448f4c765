package dev.sluice.internal.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.answer.Parameters.Setter;
import org.junit.jupiter.api.Test;

/** Which {@code set_config} calls {@link NoOpSettings} may ever answer: the text and arguments. */
class NoOpSettingsTest {

  private static Parameters parameters(Object... values) {
    Parameters p = new Parameters();
    for (int i = 0; i < values.length; i++) {
      p.set(i + 1, values[i] instanceof Boolean ? Setter.BOOLEAN : Setter.STRING, values[i]);
    }
    return p;
  }

  @Test
  void theTenantAsAParameter_isTheSettingAndItsValue() {
    assertThat(NoOpSettings.of("select set_config('app.tenant', ?, false)", parameters("a")))
        .containsExactly("app.tenant", "a");
  }

  @Test
  void literalsAndAParameterName_areReadToo_theNameInLowerCase() {
    assertThat(NoOpSettings.of("SELECT pg_catalog.set_config('App.Tenant', 'x''y', false);",
        null)).containsExactly("app.tenant", "x'y");
    assertThat(NoOpSettings.of("select set_config(?, ?, ?)", parameters("App.T", "b", false)))
        .containsExactly("app.t", "b");
  }

  @Test
  void isLocalTrueOrNotKnown_isNone() {
    assertThat(NoOpSettings.of("select set_config('app.tenant', 'a', true)", null)).isNull();
    assertThat(NoOpSettings.of("select set_config('app.tenant', ?, ?)", parameters("a", true)))
        .isNull();
    assertThat(NoOpSettings.of("select set_config('app.tenant', ?, ?)", parameters("a")))
        .isNull();
  }

  @Test
  void aParameterNotRecorded_isNone() {
    assertThat(NoOpSettings.of("select set_config('app.tenant', ?, false)", null)).isNull();
    assertThat(NoOpSettings.of("select set_config('app.tenant', ?, false)", parameters()))
        .isNull();
  }

  @Test
  void aSettingOfTheServers_withoutADot_isNone() {
    assertThat(NoOpSettings.of("select set_config('seed', '0.5', false)", null)).isNull();
    assertThat(NoOpSettings.of("select set_config('search_path', 'public', false)", null))
        .isNull();
  }

  @Test
  void anythingMoreThanTheCallAlone_isNone() {
    assertThat(NoOpSettings.of("select set_config('app.tenant', 'a', false), 1", null)).isNull();
    assertThat(NoOpSettings.of("select set_config('app.tenant', 'a', false) from t", null))
        .isNull();
    assertThat(NoOpSettings.of("select set_config('app.tenant', 'a', false); select 1", null))
        .isNull();
    assertThat(NoOpSettings.of("select v from t where id = ?", parameters("a"))).isNull();
    assertThat(NoOpSettings.of("set app.tenant = 'a'", null)).isNull();
  }
}
