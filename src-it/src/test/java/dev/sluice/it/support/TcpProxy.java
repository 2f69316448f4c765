package dev.sluice.it.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy that can go silent: while silent it keeps every connection open and
 * accepts new ones, but swallows the bytes in both directions, as a partitioned network or a hung
 * server does. Nothing is refused, so only a read timeout can notice.
 *
 * <p>This class is threadsafe.
 */
public final class TcpProxy implements AutoCloseable {
  private final ServerSocket server;
  private final String targetHost;
  private final int targetPort;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile boolean silent;
  private volatile boolean closed;

  private TcpProxy(ServerSocket server, String targetHost, int targetPort) {
    this.server = server;
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    daemon("tcp-proxy-accept-" + port(), this::acceptLoop);
  }

  /** Starts a proxy on a free loopback port in front of {@code host:port}. */
  public static TcpProxy start(String host, int port) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return new TcpProxy(server, host, port);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** Swallows every byte from now on, without closing anything. */
  public void silence() {
    silent = true;
  }

  /** Forwards again; connections that lost bytes while silent are closed, as a reset would. */
  public void heal() {
    silent = false;
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        Socket upstream = new Socket();
        if (!silent) {
          upstream.connect(new InetSocketAddress(targetHost, targetPort), 2_000);
          sockets.add(upstream);
          daemon("tcp-proxy-up", () -> pump(client, upstream));
          daemon("tcp-proxy-down", () -> pump(upstream, client));
        } else {
          daemon("tcp-proxy-sink", () -> pump(client, null));
        }
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  /** Copies {@code from} to {@code to} while not silent; swallows while silent. */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to == null ? null : to.getOutputStream();
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (!silent && out != null) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // one side went away: close both, as a proxy does
    } finally {
      closeQuietly(from);
      if (to != null) {
        closeQuietly(to);
      }
    }
  }

  private void closeQuietly(Socket s) {
    sockets.remove(s);
    try {
      s.close();
    } catch (IOException e) {
      // already gone
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
