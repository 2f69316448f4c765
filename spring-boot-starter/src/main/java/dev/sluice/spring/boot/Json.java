package dev.sluice.spring.boot;

/** The one piece of JSON writing the starter needs, so that it needs no JSON library. */
final class Json {
  private Json() {}

  /** {@code text} as a JSON string, quotes and control characters escaped. */
  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
