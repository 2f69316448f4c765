package dev.sluice.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class UrlParametersTest {

  @Test
  void strip_postgresQuery_keepsTheOtherTokensRawAndInOrder() {
    UrlParameters.Stripped s = UrlParameters.strip("jdbc:postgresql://db:5432/app?sslmode=require"
        + "&sluice.budget=5000&options=-c%20search_path%3Dx&ssl&sluice.instances=10");

    assertThat(s.url()).isEqualTo(
        "jdbc:postgresql://db:5432/app?sslmode=require&options=-c%20search_path%3Dx&ssl");
    assertThat(s.settings()).containsExactly(
        entry("sluice.budget", "5000"), entry("sluice.instances", "10"));
  }

  @Test
  void strip_onlySluiceTokens_dropsTheQuestionMark() {
    assertThat(UrlParameters.strip("jdbc:postgresql://db/app?sluice.budget=5").url())
        .isEqualTo("jdbc:postgresql://db/app");
  }

  @Test
  void strip_firstTokenIsSluice_leavesNoDanglingSeparator() {
    assertThat(UrlParameters.strip("jdbc:postgresql://db/app?sluice.budget=5&a=1").url())
        .isEqualTo("jdbc:postgresql://db/app?a=1");
    assertThat(UrlParameters.strip("jdbc:h2:mem:x;sluice.budget=5;A=1").url())
        .isEqualTo("jdbc:h2:mem:x;A=1");
    assertThat(UrlParameters.strip("jdbc:h2:mem:x;A=1;sluice.budget=5").url())
        .isEqualTo("jdbc:h2:mem:x;A=1");
  }

  @Test
  void strip_mysqlAddressHost_leavesTheHostSectionAlone() {
    String url = "jdbc:mysql://address=(host=db)(port=3306)(key=a;b=c)/app?useSSL=true"
        + "&sluice.budget=9";

    assertThat(UrlParameters.strip(url).url())
        .isEqualTo("jdbc:mysql://address=(host=db)(port=3306)(key=a;b=c)/app?useSSL=true");
  }

  @Test
  void strip_h2EscapedSemicolon_staysInItsToken() {
    String url = "jdbc:h2:mem:x;INIT=CREATE SCHEMA A\\;SET SCHEMA A;sluice.budget=3";

    UrlParameters.Stripped s = UrlParameters.strip(url);

    assertThat(s.url()).isEqualTo("jdbc:h2:mem:x;INIT=CREATE SCHEMA A\\;SET SCHEMA A");
    assertThat(s.settings()).containsExactly(entry("sluice.budget", "3"));
  }

  @Test
  void strip_sqlServerBracedValue_staysWhole() {
    String url = "jdbc:sqlserver://db\\SQLEXPRESS:1433;password={a;b}}c};sluice.budget=3;"
        + "encrypt=true";

    assertThat(UrlParameters.strip(url).url())
        .isEqualTo("jdbc:sqlserver://db\\SQLEXPRESS:1433;password={a;b}}c};encrypt=true");
  }

  @Test
  void strip_oracleDescriptor_isUntouched() {
    String url = "jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=db)(PORT=1521))"
        + "(CONNECT_DATA=(SERVICE_NAME=app)))";

    assertThat(UrlParameters.strip(url).url()).isSameAs(url);
  }

  @Test
  void strip_valuelessSluiceToken_givesAnEmptyValue() {
    assertThat(UrlParameters.strip("jdbc:h2:mem:x;sluice.budget").settings())
        .containsExactly(entry("sluice.budget", ""));
  }

  @Test
  void strip_keyGivenTwice_isAnErrorNamingTheKey() {
    assertThatThrownBy(() -> UrlParameters.strip(
        "jdbc:postgresql://db/app?sluice.budget=5&sluice.budget=5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("sluice.budget is given twice in the URL; give it once");
  }

  @Test
  void strip_sluiceKeyOutOfReach_isAnErrorRatherThanALeak() {
    assertThatThrownBy(() -> UrlParameters.strip("jdbc:postgresql://db/app?a=1;sluice.budget=5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sluice.budget stands where Sluice cannot take it out");
  }

  /** Issue 10 item 12: a key in other case, or after a blank, went to the driver unseen. */
  @Test
  void strip_sluiceKeyInAnySpelling_isTakenOutOfTheUrl() {
    for (String key : new String[] {"SLUICE.BUDGET", " sluice.instances", "\tsluice.instances",
        "+sluice.instances", "%20Sluice.Instances"}) {
      UrlParameters.Stripped stripped = UrlParameters.strip(
          "jdbc:postgresql://db/app?ssl=true&" + key + "=100");

      assertThat(stripped.url()).as(key).isEqualTo("jdbc:postgresql://db/app?ssl=true");
      assertThat(stripped.settings()).as(key).containsEntry(key, "100");
    }
  }

  @Test
  void strip_blankBeforeAKeyOutOfReach_isStillAnError() {
    assertThatThrownBy(() -> UrlParameters.strip("jdbc:postgresql://db/app?a=1; SLUICE.budget=5"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("SLUICE.budget stands where Sluice cannot take it out");
  }

  /** Issue 10 item 10: a '&' in a Redis password cut the value and echoed its first part. */
  @Test
  void strip_redisPasswordCutBySeparator_isRefusedShowingNoPartOfIt() {
    for (String url : new String[] {
        "jdbc:postgresql://db/app?sluice.redis=redis://:r3dis&Pass@cache:6379&sluice.budget=5",
        "jdbc:h2:mem:a;sluice.redis=redis://u:r3dis;Pass@cache:6379;sluice.budget=5"}) {
      assertThatThrownBy(() -> UrlParameters.strip(url))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("sluice.redis is followed in the URL by a parameter with an '@'")
          .hasMessageContaining("sluice.redis.password")
          .hasMessageNotContaining("r3dis").hasMessageNotContaining("Pass");
    }
  }
}
