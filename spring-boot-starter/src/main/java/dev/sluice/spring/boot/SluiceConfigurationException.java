package dev.sluice.spring.boot;

/**
 * A {@code sluice.*} setting that stops the start: Sluice's own message, naming the key and the
 * value, as the root cause of Spring's {@code BeanCreationException}, so that
 * {@link SluiceFailureAnalyzer} can print it with the fix instead of a stack trace.
 */
final class SluiceConfigurationException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The message alone: the library's exception, if any, said nothing more. */
  SluiceConfigurationException(String message) {
    super(message);
  }

  /** Runs {@code check}, turning its {@link IllegalArgumentException} into this one. */
  static void rethrown(Runnable check) {
    try {
      check.run();
    } catch (SluiceConfigurationException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new SluiceConfigurationException(e.getMessage());
    }
  }
}
