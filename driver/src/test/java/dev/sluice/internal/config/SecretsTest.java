package dev.sluice.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 10 item 10: no part of a password in anything Sluice shows. */
class SecretsTest {

  @Test
  void mask_redisUriCutShortByAnAmpersand_hidesWhatIsLeftOfThePassword() {
    assertThat(Secrets.mask("redis://:r3dis")).isEqualTo("redis://:****");
    assertThat(Secrets.mask("redis://user:r3dis")).isEqualTo("redis://user:****");
  }

  @Test
  void mask_missingSlash_stillHidesThePassword() {
    assertThat(Secrets.mask("redis:/:pw@host:6379")).isEqualTo("redis:/:****@host:6379");
    assertThat(Secrets.mask("redis:u:pw@host")).isEqualTo("redis:u:****@host");
  }

  @Test
  void mask_atAndSlashInsideThePassword_hideAllOfIt() {
    assertThat(Secrets.mask("redis://u:p@ss/w@rd@host:6379/0"))
        .isEqualTo("redis://u:****@host:6379/0");
    assertThat(Secrets.mask("jdbc:mysql://scott:ti@g/er@db:3306/app"))
        .isEqualTo("jdbc:mysql://scott:****@db:3306/app");
    assertThat(Secrets.mask("jdbc:oracle:thin:scott/ti@g/er@db:1521:ORCL"))
        .isEqualTo("jdbc:oracle:thin:scott/****@db:1521:ORCL");
  }

  @Test
  void mask_loginWithoutScheme_isHidden() {
    assertThat(Secrets.mask("u:pw@host:6379")).isEqualTo("u:****@host:6379");
    assertThat(Secrets.mask("pw@host")).isEqualTo("****@host");
  }

  @Test
  void mask_passwordParameters_areHidden() {
    assertThat(Secrets.mask("jdbc:postgresql://db/app?user=u&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/app?user=u&password=****&ssl=true");
    assertThat(Secrets.mask("jdbc:sqlserver://db;PASSWORD={s3;cret};user=sa"))
        .isEqualTo("jdbc:sqlserver://db;PASSWORD=****;user=sa");
    assertThat(Secrets.mask("jdbc:h2:mem:a;sluice.redis.password=s3cret;x=1"))
        .isEqualTo("jdbc:h2:mem:a;sluice.redis.password=****;x=1");
  }

  @Test
  void mask_textWithoutLogin_isUnchanged() {
    for (String plain : new String[] {"redis://cache:6379/0", "rediss://[::1]:6380",
        "redis-sentinel://s1:26379,s2:26379/mymaster/1", "jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1",
        "jdbc:postgresql://db:5432/app?sslmode=require", "jdbc:oracle:thin:@//db:1521/svc",
        "jdbc:sqlserver://db:1433;databaseName=app", "5000", "10s", "redis://"}) {
      assertThat(Secrets.mask(plain)).as(plain).isEqualTo(plain);
    }
  }

  @Test
  void redisPasswordKey_isNeverShown() {
    assertThat(Keys.REDIS_PASSWORD.show("hunter2")).isEqualTo("****");
    assertThat(Settings.parse(Map.of("sluice.redis.password", "hunter2")).toString())
        .doesNotContain("hunter2");
  }

  @Test
  void anyKeysBadValue_hidesALoginInIt() {
    assertThat(catchThrowable(() -> Keys.SCOPE.parse("redis://u:hunter2@h")))
        .hasMessage("sluice.scope must be `statement` or `connection`, but was"
            + " \"redis://u:****@h\"");
  }
}
