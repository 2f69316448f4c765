package dev.sluice.internal.config;

/**
 * The value of {@code sluice.instances}: a fixed count, or the live count from the Redis registry.
 *
 * @param count the fixed count; {@code 0} when {@code fromRedis}
 * @param fromRedis whether the count comes from the registry in {@code sluice.redis}
 */
public record Instances(int count, boolean fromRedis) {

  /** The live count from the Redis registry. */
  public static final Instances REDIS = new Instances(0, true);

  /** A fixed count. */
  public static Instances of(int count) {
    if (count < 1) {
      throw Keys.INSTANCES.invalid(count);
    }
    return new Instances(count, false);
  }

  static Instances parse(String text) {
    return "redis".equalsIgnoreCase(text) ? REDIS : of(Integer.parseInt(text));
  }

  @Override
  public String toString() {
    return fromRedis ? "redis" : Integer.toString(count);
  }
}
