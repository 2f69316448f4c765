package dev.sluice.internal.answer;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The bytes under {@link KeptCodec}: a buffer that grows up to {@link #MAX_BYTES} and refuses
 * beyond, and reads that check every count and length against the bytes left before allocating
 * anything. Integers are big-endian; a string is its UTF-8 bytes (not Java's modified UTF-8),
 * a string or byte array prefixed by its length.
 */
final class Wire {
  /** The largest encoding; a larger result is not shared. */
  static final int MAX_BYTES = 1 << 20;

  private Wire() {}

  /** A count of items of at least {@code minBytes} each, which the bytes left can hold. */
  static int count(ByteBuffer in, int minBytes) throws Unshareable {
    int n = in.getInt();
    if (n < 0 || (long) n * minBytes > in.remaining()) {
      throw new Unshareable();
    }
    return n;
  }

  static byte[] readBytes(ByteBuffer in) throws Unshareable {
    byte[] b = new byte[count(in, 1)];
    in.get(b);
    return b;
  }

  static String readString(ByteBuffer in) throws Unshareable {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(readBytes(in)))
          .toString();
    } catch (CharacterCodingException e) {
      throw new Unshareable();
    }
  }

  /** A value that must be a string or {@code null}: no recursion, whatever the tag. */
  static <T> T refuse() throws Unshareable {
    throw new Unshareable();
  }

  /** A buffer that grows up to {@link #MAX_BYTES}, and refuses beyond. */
  static final class Writer {
    ByteBuffer buf = ByteBuffer.allocate(256);

    /** The buffer, with room for {@code n} more bytes. */
    ByteBuffer room(long n) throws Unshareable {
      if (buf.remaining() < n) {
        long need = buf.position() + n;
        if (need > MAX_BYTES) {
          throw new Unshareable();
        }
        ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(MAX_BYTES,
            Math.max(need, 2L * buf.capacity())));
        buf = bigger.put(buf.flip());
      }
      return buf;
    }

    void bytes(byte[] b) throws Unshareable {
      room(4L + b.length).putInt(b.length).put(b);
    }

    void string(String s) throws Unshareable {
      if (s.length() > MAX_BYTES) {
        throw new Unshareable(); // at least a byte a character: too long, before encoding it
      }
      try {
        ByteBuffer utf8 = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(s));
        room(4 + utf8.remaining()).putInt(utf8.remaining()).put(utf8);
      } catch (CharacterCodingException e) {
        throw new Unshareable(); // a lone surrogate: UTF-8 cannot carry it exactly
      }
    }

    byte[] toBytes() {
      byte[] b = new byte[buf.position()];
      buf.flip().get(b);
      return b;
    }
  }

  /** The result cannot be carried exactly, or the bytes are no result: stackless. */
  static final class Unshareable extends Exception {
    private static final long serialVersionUID = 1L;

    Unshareable() {
      super(null, null, false, false);
    }
  }
}
