package dev.sluice.internal.driver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

  @Test
  void defaultName_postgres_isHostPortDatabase() {
    assertThat(JdbcUrls.defaultName("jdbc:postgresql://db:5432/app?user=u&password=p"))
        .isEqualTo("db-5432-app");
  }

  @Test
  void defaultName_credentialsInAuthority_areLeftOut() {
    assertThat(JdbcUrls.defaultName("jdbc:mysql://scott:tiger@db:3306/app"))
        .isEqualTo("db-3306-app");
    assertThat(JdbcUrls.defaultName("jdbc:oracle:thin:scott/tiger@db:1521:ORCL"))
        .isEqualTo("db-1521-ORCL");
  }

  @Test
  void defaultName_mysqlAddressForm_keepsOnlyHostAndPort() {
    assertThat(JdbcUrls.defaultName(
        "jdbc:mysql://address=(host=db)(port=3306)(user=scott)(password=tiger)/app"))
        .isEqualTo("db-3306-app");
  }

  @Test
  void defaultName_oracleDescriptor_keepsHostPortService() {
    assertThat(JdbcUrls.defaultName("jdbc:oracle:thin:@(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)"
        + "(HOST=db)(PORT=1521))(CONNECT_DATA=(SERVICE_NAME=app)))"))
        .isEqualTo("db-1521-app");
  }

  @Test
  void defaultName_sqlServer_takesTheDatabaseFromItsParameter() {
    assertThat(JdbcUrls.defaultName(
        "jdbc:sqlserver://db:1433;user=sa;password=secret;databaseName=app"))
        .isEqualTo("db-1433-app");
  }

  @Test
  void defaultName_h2_usesTheDatabaseName() {
    assertThat(JdbcUrls.defaultName("jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1"))
        .isEqualTo("mem-orders");
  }

  @Test
  void defaultName_differentDatabases_differ() {
    assertThat(JdbcUrls.defaultName("jdbc:postgresql://db:5432/app"))
        .isNotEqualTo(JdbcUrls.defaultName("jdbc:postgresql://db:5432/billing"));
  }

  @Test
  void defaultName_veryLongUrl_fitsSixtyFourCharactersAndStaysDistinct() {
    String a = JdbcUrls.defaultName("jdbc:postgresql://" + "h".repeat(80) + "/a");
    String b = JdbcUrls.defaultName("jdbc:postgresql://" + "h".repeat(80) + "/b");

    assertThat(a).hasSize(64).matches("[A-Za-z0-9._-]+");
    assertThat(a).isNotEqualTo(b);
  }

  /** Issue 10 item 11: DB2's properties after the database went into the name, password too. */
  @Test
  void defaultName_db2PropertiesAfterTheDatabase_areLeftOut() {
    assertThat(JdbcUrls.defaultName("jdbc:db2://db:50000/app:user=u;password=x;"))
        .isEqualTo("db-50000-app");
  }

  /** Issue 10 item 11: two H2 databases derived one name and shared one bucket. */
  @Test
  void defaultName_namesThatWouldJoinAlike_differ() {
    String[][] pairs = {
        {"jdbc:h2:mem:a:b", "jdbc:h2:mem:a-b"},
        {"jdbc:postgresql://db:5432/app", "jdbc:postgresql://db-5432/app"},
        {"jdbc:h2:mem:a.b", "jdbc:h2:mem:a/b"},
        {"jdbc:postgresql://h1:5432,h2:5432/app", "jdbc:postgresql://h1-5432-h2-5432/app"}};
    for (String[] pair : pairs) {
      assertThat(JdbcUrls.defaultName(pair[0])).as(pair[0] + " and " + pair[1])
          .isNotEqualTo(JdbcUrls.defaultName(pair[1]));
    }
  }

  @Test
  void defaultName_lossyJoin_getsAStableChecksumAndStaysReadable() {
    String name = JdbcUrls.defaultName("jdbc:h2:mem:a-b;DB_CLOSE_DELAY=-1");

    assertThat(name).matches("mem-a-b-[0-9a-f]{8}");
    assertThat(JdbcUrls.defaultName("jdbc:h2:mem:a-b;user=sa")).isEqualTo(name);
    assertThat(JdbcUrls.defaultName("jdbc:h2:mem:a:b")).isEqualTo("mem-a-b");
  }

  @Test
  void defaultName_credentialsNeverReachTheName() {
    for (String url : new String[] {"jdbc:db2://db:50000/app:password=s3cret;",
        "jdbc:mysql://scott:s3cret@db:3306/app", "jdbc:oracle:thin:scott/s3cret@db:1521:ORCL",
        "jdbc:postgresql://db/app?password=s3cret", "jdbc:sqlserver://db;password=s3cret"}) {
      assertThat(JdbcUrls.defaultName(url)).as(url).doesNotContainIgnoringCase("s3cret")
          .doesNotContainIgnoringCase("password");
    }
  }

  @Test
  void mask_passwordsInEveryForm_areHidden() {
    assertThat(JdbcUrls.mask("jdbc:postgresql://db/app?user=u&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/app?user=u&password=****&ssl=true");
    assertThat(JdbcUrls.mask("jdbc:mysql://scott:s3cret@db/app"))
        .isEqualTo("jdbc:mysql://scott:****@db/app");
    assertThat(JdbcUrls.mask("jdbc:sqlserver://db;PASSWORD={s3;cret};user=sa"))
        .isEqualTo("jdbc:sqlserver://db;PASSWORD=****;user=sa");
    assertThat(JdbcUrls.mask("jdbc:oracle:thin:scott/s3cret@db:1521:ORCL"))
        .isEqualTo("jdbc:oracle:thin:scott/****@db:1521:ORCL");
    assertThat(JdbcUrls.mask("jdbc:mysql://address=(host=db)(password=s3cret)/app"))
        .isEqualTo("jdbc:mysql://address=(host=db)(password=****)/app");
  }
}
