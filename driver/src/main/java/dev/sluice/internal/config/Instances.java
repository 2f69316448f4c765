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

  /**
   * A fixed count.
   *
   * @param count how many instances share the budget
   * @return the count
   * @throws IllegalArgumentException if {@code count < 1}
   */
  public static Instances of(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("a count of instances must be positive, but was "
          + count);
    }
    return new Instances(count, false);
  }

  /** The parser of {@code sluice.instances}: {@code redis} or a positive integer, else null. */
  static Instances parse(String text) {
    if ("redis".equalsIgnoreCase(text)) {
      return REDIS;
    }
    int count = Integer.parseInt(text);
    return count < 1 ? null : of(count);
  }

  @Override
  public String toString() {
    return fromRedis ? "redis" : Integer.toString(count);
  }
}
