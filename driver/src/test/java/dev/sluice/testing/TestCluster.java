package dev.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;

/**
 * A real Redis Cluster for tests: {@code redis-server} processes from the embedded-redis artifact
 * in cluster mode, joined with {@code CLUSTER MEET}, their slots given with
 * {@code CLUSTER ADDSLOTS} and their replicas attached with {@code CLUSTER REPLICATE}, all through
 * Jedis; no {@code redis-cli --cluster}. The node timeout is 500 ms, so a dead master is replaced
 * by its replica within a few seconds. Each node keeps its cluster state in a file of a temporary
 * directory of its own, so a port reused from an earlier run finds no stale cluster.
 */
public final class TestCluster implements AutoCloseable {
  private static final int SLOTS = 16384;
  private static final String HOST = "127.0.0.1";

  private final List<RedisServer> servers = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private final Map<Integer, Long> pids = new ConcurrentHashMap<>();
  private final Path dir;

  private TestCluster(Path dir) {
    this.dir = dir;
  }

  /**
   * Starts a cluster and waits until every node says it is ok.
   *
   * @param masters how many masters (the slots are split evenly among them)
   * @param withReplicas whether each master gets a replica
   * @return the running cluster; close it to stop every node
   */
  public static TestCluster start(int masters, boolean withReplicas) {
    TestCluster cluster;
    try {
      cluster = new TestCluster(Files.createTempDirectory("sluice-cluster"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      int nodes = withReplicas ? masters * 2 : masters;
      for (int i = 0; i < nodes; i++) {
        cluster.startNode();
      }
      cluster.join(masters);
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  private void startNode() {
    try {
      int port = freePort();
      RedisServer server = RedisServer.newRedisServer().port(port).bind(HOST)
          .setting("save \"\"").setting("appendonly no")
          .setting("cluster-enabled yes")
          .setting("cluster-config-file " + dir.resolve("nodes-" + port + ".conf"))
          .setting("cluster-node-timeout 500")
          .setting("cluster-replica-validity-factor 0") // a replica may always take over
          .build();
      server.start();
      servers.add(server);
      ports.add(port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Meets every node, splits the slots among the first {@code masters}, attaches replicas. */
  private void join(int masters) {
    int first = ports.get(0);
    call(first, cli -> {
      ports.stream().skip(1).forEach(port -> cli.clusterMeet(HOST, port));
      return null;
    });
    for (int m = 0; m < masters; m++) {
      int[] slots = IntStream.range(m * SLOTS / masters, (m + 1) * SLOTS / masters).toArray();
      call(ports.get(m), cli -> cli.clusterAddSlots(slots));
    }
    Await.until("every node knows every other", Duration.ofSeconds(20),
        () -> ports.stream().allMatch(port -> known(port) == ports.size()));
    for (int r = masters; r < ports.size(); r++) {
      String masterId = call(ports.get(r - masters), Jedis::clusterMyId);
      call(ports.get(r), cli -> cli.clusterReplicate(masterId));
    }
    awaitHealthy(Duration.ofSeconds(30));
    Await.until("every replica in sync", Duration.ofSeconds(20), () -> ports.stream()
        .skip(masters).allMatch(port -> quietly(port, cli -> cli.info("replication"))
            .contains("master_link_status:up")));
  }

  /** How many nodes {@code port} knows that are past the handshake. */
  private long known(int port) {
    return quietly(port, Jedis::clusterNodes).lines()
        .filter(line -> !line.isBlank() && !line.contains("handshake")).count();
  }

  /**
   * Waits until every running node says {@code cluster_state:ok} and agrees on one master per
   * slot range.
   *
   * @param within the longest wait
   */
  public void awaitHealthy(Duration within) {
    Await.until("cluster_state:ok on every running node", within, () -> running().stream()
        .allMatch(port -> quietly(port, Jedis::clusterInfo).contains("cluster_state:ok")));
  }

  /** The URI to give {@code sluice.redis}: every node of the cluster. */
  public String uri() {
    return "redis-cluster://" + ports.stream().map(port -> HOST + ":" + port)
        .collect(Collectors.joining(","));
  }

  /** The ports of all nodes, masters first. */
  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  /** The ports of the nodes still running. */
  public List<Integer> running() {
    List<Integer> up = new ArrayList<>();
    for (int i = 0; i < ports.size(); i++) {
      if (servers.get(i).isActive()) {
        up.add(ports.get(i));
      }
    }
    return up;
  }

  /** A plain client to one node, as {@code redis-cli -p <port>} would be. */
  public Jedis client(int port) {
    return new Jedis(HOST, port);
  }

  /**
   * The port of the master serving {@code key}, as a running node sees it now.
   *
   * @param key a key
   * @return the master's port, or {@code -1} if no running node knows a live master for it
   */
  public int masterOf(String key) {
    for (int port : running()) {
      try (Jedis cli = client(port)) {
        long slot = cli.clusterKeySlot(key);
        return cli.clusterNodes().lines().map(line -> line.split(" "))
            .filter(f -> f[2].contains("master") && !f[2].contains("fail"))
            .filter(f -> serves(f, slot)).mapToInt(f -> port(f[1])).findFirst().orElse(-1);
      } catch (RuntimeException e) {
        // ask the next node
      }
    }
    return -1;
  }

  /**
   * How many live replicas the master on {@code port} has, as a running node sees it.
   *
   * @param port a master's port
   * @return its replicas not marked failing
   */
  public long replicasOf(int port) {
    return liveReplicas(port).size();
  }

  /**
   * The port of a live replica of the master on {@code port}, as a running node sees it.
   *
   * @param port a master's port
   * @return a replica's port, or {@code -1} if it has none
   */
  public int replicaOf(int port) {
    List<Integer> replicas = liveReplicas(port);
    return replicas.isEmpty() ? -1 : replicas.get(0);
  }

  /** The ports of the master's replicas not marked failing, as the first node to answer says. */
  private List<Integer> liveReplicas(int port) {
    for (int node : running()) {
      try (Jedis cli = client(node)) {
        List<String[]> lines = cli.clusterNodes().lines().map(line -> line.split(" ")).toList();
        String id = lines.stream().filter(f -> port(f[1]) == port).map(f -> f[0]).findFirst()
            .orElse("?");
        return lines.stream().filter(f -> f[2].contains("slave") && !f[2].contains("fail")
            && f[3].equals(id)).map(f -> port(f[1])).toList();
      } catch (RuntimeException e) {
        // ask the next node
      }
    }
    return List.of();
  }

  private static boolean serves(String[] fields, long slot) {
    for (int i = 8; i < fields.length; i++) {
      String[] range = fields[i].split("-");
      if (range[0].startsWith("[")) {
        continue; // a slot being migrated
      }
      long from = Long.parseLong(range[0]);
      long to = range.length > 1 ? Long.parseLong(range[1]) : from;
      if (from <= slot && slot <= to) {
        return true;
      }
    }
    return false;
  }

  private static int port(String address) { // host:port@busport
    String hostPort = address.split("@")[0];
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }

  /** Stops the node on {@code port}, as a crash would: its clients get connection refused. */
  public void stop(int port) {
    try {
      servers.get(ports.indexOf(port)).stop();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Freezes the node on {@code port} with {@code SIGSTOP}, as a stalled host would: the kernel
   * still accepts connections, but nothing answers until {@link #thaw(int)}.
   */
  public void freeze(int port) {
    signal("-STOP", pid(port));
  }

  /** Resumes a node frozen by {@link #freeze(int)}. */
  public void thaw(int port) {
    signal("-CONT", pids.get(port));
  }

  private long pid(int port) {
    return pids.computeIfAbsent(port, p -> call(p, cli -> cli.info("server")).lines()
        .filter(line -> line.startsWith("process_id:"))
        .mapToLong(line -> Long.parseLong(line.substring("process_id:".length()).trim()))
        .findFirst().orElseThrow());
  }

  private static void signal(String which, long pid) {
    try {
      int exit = new ProcessBuilder("kill", which, Long.toString(pid)).start().waitFor();
      if (exit != 0) {
        throw new IllegalStateException("kill " + which + " " + pid + " exited with " + exit);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private <T> T call(int port, Function<Jedis, T> command) {
    try (Jedis cli = client(port)) {
      return command.apply(cli);
    }
  }

  /** A call to a node that may be down or busy: its answer, or an empty text. */
  private String quietly(int port, Function<Jedis, String> command) {
    try {
      return String.valueOf(call(port, command));
    } catch (RuntimeException e) {
      return "";
    }
  }

  /**
   * A port free with its cluster bus port (port + 10000): chosen below 55536, where the bus port
   * still exists, unlike most ephemeral ports.
   */
  private static int freePort() throws IOException {
    for (int tries = 0; tries < 100; tries++) {
      int port = 20000 + ThreadLocalRandom.current().nextInt(30000);
      if (free(port) && free(port + 10000)) {
        return port;
      }
    }
    throw new IOException("no free port pair for a cluster node");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() {
    for (long pid : pids.values()) {
      try {
        signal("-CONT", pid); // a frozen node cannot stop
      } catch (RuntimeException e) {
        // stopped already
      }
    }
    for (RedisServer server : servers) {
      try {
        if (server.isActive()) {
          server.stop();
        }
      } catch (IOException | RuntimeException e) {
        // stop the others anyway
      }
    }
    try (var files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }
}
