package dev.sluice;

import dev.sluice.internal.answer.Answers;
import dev.sluice.internal.answer.Ineligible;
import dev.sluice.internal.config.Keys;
import dev.sluice.internal.config.Mode;
import dev.sluice.internal.limit.Counts;
import dev.sluice.internal.limit.Limiter;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RateLimitedDataSourceMXBean} of one budget, over its {@link Limiter}, and its
 * registration in the platform MBean server.
 *
 * <p>This class is threadsafe: it holds nothing but the limiter, which is.
 */
final class EnforcerJmx implements RateLimitedDataSourceMXBean {
  private static final Logger LOG = LoggerFactory.getLogger("dev.sluice.RateLimitedDataSource");
  static final String DOMAIN_AND_TYPE = "dev.sluice:type=RateLimitedDataSource,name=";
  private static final int MAX_SUFFIX = 1000;

  private final Limiter limiter;
  /** Read attribute by attribute: no snapshot, and no read acts on anything. */
  private final Figures figures;
  /** Who makes the changes, as the WARN lines name it: {@code JMX}, or {@code Actuator}. */
  private final String via;

  EnforcerJmx(Limiter limiter, Figures figures) {
    this(limiter, figures, "JMX");
  }

  EnforcerJmx(Limiter limiter, Figures figures, String via) {
    this.via = via;
    this.limiter = limiter;
    this.figures = figures;
  }

  /**
   * Registers the MXBean of {@code limiter} under its name, or the first free {@code name#n}.
   *
   * @return what unregisters it; closing it twice is harmless
   */
  static AutoCloseable register(Limiter limiter, Figures figures) {
    return register(limiter, figures, ManagementFactory.getPlatformMBeanServer());
  }

  static AutoCloseable register(Limiter limiter, Figures figures, MBeanServer server) {
    // StandardMBean: the MXBean rules apply to the public interface, not to this class's name
    StandardMBean bean =
        new StandardMBean(new EnforcerJmx(limiter, figures), RateLimitedDataSourceMXBean.class,
            true);
    for (int n = 1; n <= MAX_SUFFIX; n++) {
      ObjectName name = objectName(limiter.name() + (n == 1 ? "" : "#" + n));
      try {
        server.registerMBean(bean, name);
        if (n > 1) {
          LOG.warn("{} - an MXBean named {}{} is already registered (two data sources with the"
              + " same sluice.name in one JVM?); this one is {}", limiter.name(), DOMAIN_AND_TYPE,
              limiter.name(), name);
        }
        return () -> unregister(server, name);
      } catch (InstanceAlreadyExistsException taken) {
        continue;
      } catch (JMException e) {
        LOG.warn("{} - could not register the MXBean {}; go on without it", limiter.name(), name,
            e);
        return () -> { };
      }
    }
    LOG.warn("{} - {} MXBeans of this name are registered already; not registering another",
        limiter.name(), MAX_SUFFIX);
    return () -> { };
  }

  static ObjectName objectName(String name) {
    try {
      return new ObjectName(DOMAIN_AND_TYPE + name);
    } catch (MalformedObjectNameException e) {
      // sluice.name allows only [A-Za-z0-9._-], none of which ObjectName quotes
      throw new IllegalStateException(e);
    }
  }

  private static void unregister(MBeanServer server, ObjectName name) {
    try {
      server.unregisterMBean(name);
    } catch (InstanceNotFoundException gone) {
      // closed twice, or unregistered by someone else: nothing to do
    } catch (JMException e) {
      LOG.warn("could not unregister the MXBean {}", name, e);
    }
  }

  @Override
  public String getName() {
    return limiter.name();
  }

  @Override
  public double getBudget() {
    return limiter.share().budget();
  }

  @Override
  public void setBudget(double permitsPerSecond) {
    limiter.share().setBudget(permitsPerSecond, via);
  }

  @Override
  public double getInstances() {
    return limiter.share().instances();
  }

  @Override
  public double getPermitsPerSecond() {
    return limiter.bucket().permitsPerSecond();
  }

  @Override
  public int getBurst() {
    return limiter.bucket().burst();
  }

  @Override
  public String getScope() {
    return limiter.scope().name();
  }

  @Override
  public boolean isLimiting() {
    return figures.limiting();
  }

  @Override
  public boolean isRecovering() {
    return figures.recovering();
  }

  @Override
  public boolean endRecovery() {
    return limiter.hold().endRecovery(via);
  }

  @Override
  public String getFlag() {
    return String.valueOf(limiter.hold().flag());
  }

  @Override
  public String getFlagState() {
    return figures.flagState().name();
  }

  @Override
  public long getSinceFlagReadMillis() {
    return figures.sinceFlagRead().toMillis();
  }

  @Override
  public int getLiveInstances() {
    return figures.liveInstances();
  }

  @Override
  public int getInFlight() {
    return figures.inFlight();
  }

  @Override
  public int getConcurrencyLimit() {
    return figures.concurrencyLimit();
  }

  @Override
  public boolean isFlagManual() {
    return limiter.hold().flag() instanceof BreakerFlag.Manual;
  }

  @Override
  public long getAdmitted() {
    return limiter.counts().admitted();
  }

  @Override
  public long getRejected() {
    return limiter.counts().rejected();
  }

  @Override
  public long getForced() {
    return limiter.counts().forced();
  }

  @Override
  public long getAnswered() {
    return figures.answered();
  }

  @Override
  public long getJoined() {
    return figures.joined();
  }

  @Override
  public int getAnswersKept() {
    return figures.answersKept();
  }

  @Override
  public long getAnswersKeptBytes() {
    return figures.answersKeptBytes();
  }

  @Override
  public long getAnswerAgeP99Millis() {
    return figures.answerAgeMillis(0.99);
  }

  @Override
  public String getNotEligibleByReason() {
    return byReason(Ineligible.words(), figures::notEligible);
  }

  @Override
  public long getSharedSent() {
    return figures.sharedSent();
  }

  @Override
  public long getSharedHeard() {
    return figures.sharedHeard();
  }

  @Override
  public String getSharedDroppedByReason() {
    return byReason(Answers.sharedDropReasons(), figures::sharedDropped);
  }

  /** {@code reason count, reason count, ...}: every reason, in its fixed order. */
  private static String byReason(List<String> reasons, ToLongFunction<String> count) {
    StringBuilder text = new StringBuilder();
    for (String reason : reasons) {
      text.append(text.length() == 0 ? "" : ", ").append(reason).append(' ')
          .append(count.applyAsLong(reason));
    }
    return text.toString();
  }

  @Override
  public void tripFlag() {
    manualFlag("trip").trip();
    LOG.warn("{} - the manual breaker flag was tripped over {}", limiter.name(), via);
  }

  @Override
  public void resetFlag() {
    manualFlag("reset").reset();
    LOG.warn("{} - the manual breaker flag was reset over {}", limiter.name(), via);
  }

  private BreakerFlag.Manual manualFlag(String action) {
    BreakerFlag flag = limiter.hold().flag();
    if (flag instanceof BreakerFlag.Manual) {
      return (BreakerFlag.Manual) flag;
    }
    if (flag == BreakerFlag.alwaysOpen()) {
      throw new UnsupportedOperationException(String.format(Locale.ROOT,
          "%s - cannot %s the breaker flag over %s: there is none; the flag is always open"
              + " (sluice.flag=always, the default without sluice.redis), so the limiter is"
              + " always on. To change what it admits now, %s; to switch it on and off here,"
              + " configure sluice.flag=manual (BreakerFlag.manual() in code), which starts"
              + " closed", limiter.name(), action, via,
          via.equals("JMX") ? "call setBudget" : "change the budget"));
    }
    String where = flag instanceof RedisBreakerFlag
        ? "for a Redis flag: SET or DEL sluice:" + limiter.name() + ":breaker"
        : "the application's own code or its circuit breaker";
    throw new UnsupportedOperationException(String.format(Locale.ROOT,
        "%s - cannot %s the breaker flag over %s: it is %s, not BreakerFlag.manual(); change it"
            + " where it lives (%s)", limiter.name(), action, via, flag, where));
  }

  @Override
  public String getMode() {
    return Counts.modeName(limiter.counts().shadow());
  }

  @Override
  public void setMode(String mode) {
    Mode parsed = Keys.MODE.parse(mode);
    limiter.counts().setShadow(parsed == Mode.SHADOW, via);
  }

  @Override
  public long getShadowRejected() {
    return limiter.counts().shadowRejected();
  }

  @Override
  public String getCallsByPriority() {
    StringBuilder text = new StringBuilder();
    for (Priority p : Priority.values()) {
      text.append(p.ordinal() == 0 ? "" : ", ").append(p.tag()).append(' ')
          .append(limiter.counts().admitted(p)).append('/')
          .append(limiter.counts().rejected(p)).append('/')
          .append(limiter.counts().shadowRejected(p));
    }
    return text.toString();
  }
}
