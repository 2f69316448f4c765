package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BreakerFlagTest {

  @Test
  void alwaysOpen_isOpen() {
    assertThat(BreakerFlag.alwaysOpen().isOpen()).isTrue();
    assertThat(BreakerFlag.alwaysOpen()).hasToString("BreakerFlag.alwaysOpen()");
  }

  @Test
  void of_followsTheSupplierOnEveryCall() {
    AtomicBoolean breakerOpen = new AtomicBoolean();
    BreakerFlag flag = BreakerFlag.of(breakerOpen::get);
    assertThat(flag.isOpen()).isFalse();
    breakerOpen.set(true);
    assertThat(flag.isOpen()).isTrue();
    breakerOpen.set(false);
    assertThat(flag.isOpen()).isFalse();
  }

  @Test
  void of_null_isRefused() {
    assertThatThrownBy(() -> BreakerFlag.of(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void manual_startsClosed_tripOpens_resetCloses() {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    assertThat(flag.isOpen()).isFalse();
    flag.trip();
    assertThat(flag.isOpen()).isTrue();
    assertThat(flag).hasToString("BreakerFlag.manual(open)");
    flag.reset();
    assertThat(flag.isOpen()).isFalse();
  }

  @Test
  void manual_tripOnOneThread_isSeenOnAnother() throws Exception {
    BreakerFlag.Manual flag = BreakerFlag.manual();
    Thread reader = new Thread(() -> {
      while (!flag.isOpen()) {
        Thread.onSpinWait();
      }
    });
    reader.start();
    flag.trip();
    reader.join(10_000);
    assertThat(reader.isAlive()).as("the reader saw the trip").isFalse();
  }
}
