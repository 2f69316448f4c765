package dev.sluice.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small TCP proxy in front of Redis that can play a partition: in {@link Mode#SILENT} it keeps
 * every connection open and accepts new ones, but swallows all bytes both ways, so clients see
 * neither an answer nor a reset. In {@link Mode#PASS} it forwards. Its threads are daemons named
 * {@code test-proxy-...}.
 */
public final class TcpProxy implements AutoCloseable {

  /** What the proxy does with the bytes. */
  public enum Mode { PASS, SILENT }

  private final InetSocketAddress target;
  private final ServerSocket server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile Mode mode = Mode.PASS;
  private volatile boolean closed;

  private TcpProxy(String host, int port) throws IOException {
    this.target = new InetSocketAddress(host, port);
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    daemon("test-proxy-accept", this::accept).start();
  }

  /** Starts a proxy to {@code host:port} on a free local port. */
  public static TcpProxy to(String host, int port) throws IOException {
    return new TcpProxy(host, port);
  }

  /** The local port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** How many clients have connected so far. */
  public int connections() {
    return sockets.size() / 2;
  }

  /** Switches between forwarding and swallowing. */
  public void mode(Mode next) {
    this.mode = next;
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(target, 1000);
        sockets.add(client);
        sockets.add(upstream);
        daemon("test-proxy-up", () -> pump(client, upstream)).start();
        daemon("test-proxy-down", () -> pump(upstream, client)).start();
      } catch (IOException e) {
        // closed, or the target refused: the client's socket is dropped with it
      }
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (mode == Mode.PASS) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException e) {
      // one side closed
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    sockets.forEach(TcpProxy::closeQuietly);
  }
}
