package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.ExceptionEvent;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.ExceptionRequest;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The path of one call, measured rather than told: the hand-written rooms a call enters, each
 * method entry and exit of {@code dev.sluice} on the calling thread recorded by the JDK's own
 * debugger interface (JDI, {@code jdk.jdi}) in a second JVM, for the full configuration:
 * {@code sluice.concurrency=auto}, recovery running (the flag opened, then closed, on a fake
 * clock that never reaches the settle), and, inside a {@code Priority.CRITICAL} block,
 * {@code getConnection()}, {@code createStatement()}, one {@code execute(String)} sent as text,
 * and both closed.
 *
 * <p>What it counts: a <em>room</em> is a top-level class of {@code driver/src/main/java}, its
 * nested classes and lambdas folded into it. The generated wrappers are passages, not rooms: a
 * call through one counts as a call from the room that called it. Classes outside the library
 * (the test's driver and flag, the JDK, SLF4J) are the outside: a call from there starts afresh.
 * It counts the methods that ran, on the admit path this configuration takes (the bucket
 * admits), not every branch: a refusal would add {@code Refusals} and the exception. A field read
 * is not an entry.
 *
 * <p>The rules: no room is entered again while it is still on the stack (a call that comes back
 * to a room it left is a loop), no call climbs to a higher floor than its caller's, and the rooms,
 * in the order first entered, with their floors, are the list in {@code docs/architecture.md}.
 * Run it to see them: {@code mvn -pl driver -am test -Dtest=CallPathTest} prints the list.
 */
class CallPathTest {
  private static final Path ARCHITECTURE = Path.of("..", "docs", "architecture.md");
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final Path GENERATED = Path.of("target", "generated-sources", "jdbc-wrappers");
  private static final String BEGIN = "<!-- call-path:begin (checked by CallPathTest) -->";
  private static final String END = "<!-- call-path:end -->";

  @Test
  void fullConfiguration_entersTheRoomsArchitectureMdLists_onceEach_neverClimbing()
      throws Exception {
    Map<String, Integer> floors = documentedFloors();
    Recorder path = record(floors);
    String measured = path.report();
    System.out.println(measured);

    assertThat(path.output).as("the recorded JVM ran the call in recovery, with a place held")
        .contains("recovering=true").contains("auto=true");
    assertThat(path.depth()).as("every entry recorded has its exit").isZero();
    assertThat(path.rooms.keySet()).as("the rooms docs/architecture.md lists, in the order"
        + " first entered; measured:%n%s", measured)
        .containsExactlyElementsOf(floors.keySet());
    assertThat(path.reentered).as("rooms entered again while still on the stack; measured:%n%s",
        measured).isEmpty();
    assertThat(path.climbs).as("calls to a higher floor; measured:%n%s", measured).isEmpty();
  }

  /**
   * The other three paths ({@link OtherPaths}), each measured: at most its bound of rooms (the
   * count measured when the bound was set: a path that grows fails here, one that shrinks says
   * so in the output), none entered again while on the stack, none climbing where both floors
   * are listed. The bounds are the rooms entered today, not a goal: issue 37 aimed at 12 for the
   * answered read, which crosses 29: 12 for the refusal itself, 17 for the answers' own checks
   * (docs/architecture.md, "The path of one call").
   */
  @Test
  void theReadPaths_stayWithinTheirRooms_noneEnteredAgain() throws Exception {
    Map<String, Integer> floors = documentedFloors();
    Map<String, Integer> bounds = new LinkedHashMap<>();
    bounds.put("closed", 10);
    bounds.put("refused", 13);
    bounds.put("answered", 29);
    for (Map.Entry<String, Integer> path : bounds.entrySet()) {
      Recorder r = record(floors, path.getKey());
      String measured = r.report();
      System.out.println("path " + path.getKey() + ": " + measured);
      assertThat(r.output).as("the recorded JVM's call").contains("path=" + path.getKey()
          + " got=" + (path.getKey().equals("refused") ? "refused" : "one"));
      assertThat(r.depth()).as("every entry recorded has its exit").isZero();
      assertThat(r.rooms).as("the %s read's rooms; measured:%n%s", path.getKey(), measured)
          .hasSizeLessThanOrEqualTo(path.getValue());
      assertThat(r.reentered).as("the %s read; measured:%n%s", path.getKey(), measured)
          .isEmpty();
      assertThat(r.climbs).as("the %s read; measured:%n%s", path.getKey(), measured).isEmpty();
    }
  }

  /** The rules can fail: a call that comes back to a room it left, and one that climbs. */
  @Test
  void recorder_roomEnteredAgainWhileOnTheStack_orAHigherFloor_isReported() {
    String limiter = "driver/src/main/java/dev/sluice/internal/limit/Limiter.java";
    String bucket = "driver/src/main/java/dev/sluice/internal/limit/Bucket.java";
    Recorder path = new Recorder(Map.of(limiter, 3, bucket, 4));
    path.enter("dev.sluice.internal.jdbc.GeneratedStatement", "execute"); // a passage
    path.enter("dev.sluice.internal.limit.Limiter", "beforeStatement");
    path.enter("dev.sluice.internal.limit.Bucket", "tryAcquire");
    path.enter("dev.sluice.internal.limit.Bucket$1", "run"); // the same room
    path.enter("dev.sluice.internal.limit.Limiter$$Lambda$7/0x01", "get");
    assertThat(path.reentered).containsExactly("Bucket -> Limiter.get while in Limiter");
    assertThat(path.climbs).containsExactly("Bucket (floor 4) -> Limiter (floor 3)");
    assertThat(path.rooms).containsExactly(Map.entry(limiter, 2), Map.entry(bucket, 1));
    for (int i = 0; i < 5; i++) {
      path.exit();
    }
    assertThat(path.depth()).isZero();
  }

  /**
   * JDI reports no exit of a frame an exception unwinds: the frames above the catching one are
   * popped when the exception is reported, so a room called after the catch is not taken for one
   * entered again (what made a refused read look like a loop through {@code Limiter}).
   */
  @Test
  void recorder_framesUnwoundByAnException_areLeft() {
    String wrapper = "driver/src/main/java/dev/sluice/internal/jdbc/StatementWrapper.java";
    String limiter = "driver/src/main/java/dev/sluice/internal/limit/Limiter.java";
    Recorder path = new Recorder(Map.of(wrapper, 2, limiter, 3));
    path.enter("dev.sluice.internal.jdbc.StatementWrapper", "executeQuery");
    path.enter("dev.sluice.internal.limit.Limiter", "beforeStatement");
    path.enter("dev.sluice.internal.limit.Limiter", "refuse");
    path.thrownTo("java.lang.Thread", "run"); // caught outside the frames: none is left
    assertThat(path.depth()).isEqualTo(3);
    path.thrownTo("dev.sluice.internal.jdbc.StatementWrapper", "executeQuery");
    assertThat(path.depth()).isEqualTo(1);
    path.enter("dev.sluice.internal.limit.Limiter", "answers");
    assertThat(path.reentered).isEmpty();
    path.exit();
    path.exit();
    assertThat(path.depth()).isZero();
  }

  @Test
  void everySourceFileArchitectureMdNames_exists() throws IOException {
    Matcher m = Pattern.compile("`((?:driver|benchmarks|src-it|spring-boot-starter|examples)"
        + "/[\\w./-]+\\.java)`").matcher(Files.readString(ARCHITECTURE));
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named).as("source files named in docs/architecture.md").hasSizeGreaterThan(10)
        .allSatisfy(f -> assertThat(Path.of("..", f)).as(f).isRegularFile());
  }

  /** The block's rooms, in its order, each with the floor written after it: "(floor 2)". */
  private static Map<String, Integer> documentedFloors() throws IOException {
    String text = Files.readString(ARCHITECTURE);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("docs/architecture.md has the call-path block").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    Map<String, Integer> listed = new LinkedHashMap<>();
    Matcher m = Pattern.compile("`([\\w./-]+\\.java)` \\(floor (\\d+)\\)")
        .matcher(text.substring(begin, end));
    while (m.find()) {
      listed.put(m.group(1), Integer.parseInt(m.group(2)));
    }
    return listed;
  }

  /** Runs {@link OneCall} in a JVM under JDI and records its marked call. */
  private static Recorder record(Map<String, Integer> floors) throws Exception {
    return record(floors, "");
  }

  /** As {@link #record(Map)}, for one of {@link OtherPaths}' paths ({@code ""}: the update). */
  private static Recorder record(Map<String, Integer> floors, String path) throws Exception {
    LaunchingConnector launcher = Bootstrap.virtualMachineManager().defaultConnector();
    Map<String, Connector.Argument> arguments = launcher.defaultArguments();
    arguments.get("main").setValue(OneCall.class.getName() + (path.isEmpty() ? "" : " " + path));
    arguments.get("options").setValue("-cp \"" + classPath() + "\"");
    VirtualMachine vm = launcher.launch(arguments);
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    Thread out = drain(vm.process().getInputStream(), output);
    Thread err = drain(vm.process().getErrorStream(), errors);
    Recorder recorder = new Recorder(floors);
    EventRequestManager requests = vm.eventRequestManager();
    for (Class<?> marker : List.of(Begin.class, End.class)) {
      ClassPrepareRequest prepared = requests.createClassPrepareRequest();
      prepared.addClassFilter(marker.getName());
      prepared.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
      prepared.enable();
    }
    List<EventRequest> recording = new ArrayList<>();
    vm.resume();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    boolean alive = true;
    while (alive) {
      assertThat(System.nanoTime()).as("the recorded JVM finished in time").isLessThan(deadline);
      EventSet events = vm.eventQueue().remove(1_000);
      if (events == null) {
        continue;
      }
      for (Event event : events) {
        if (event instanceof ClassPrepareEvent) {
          ClassPrepareEvent prepared = (ClassPrepareEvent) event;
          if (prepared.referenceType().name().equals(Begin.class.getName())) {
            for (EventRequest request : List.<EventRequest>of(
                requests.createMethodEntryRequest(), requests.createMethodExitRequest(),
                requests.createExceptionRequest(null, true, true))) {
              if (request instanceof ExceptionRequest) {
                ((ExceptionRequest) request).addThreadFilter(prepared.thread());
              } else if (request instanceof MethodEntryRequest) {
                ((MethodEntryRequest) request).addThreadFilter(prepared.thread());
                ((MethodEntryRequest) request).addClassFilter("dev.sluice.*");
              } else {
                ((MethodExitRequest) request).addThreadFilter(prepared.thread());
                ((MethodExitRequest) request).addClassFilter("dev.sluice.*");
              }
              request.setSuspendPolicy(EventRequest.SUSPEND_NONE);
              request.enable();
              recording.add(request);
            }
          } else {
            recording.forEach(EventRequest::disable);
          }
        } else if (event instanceof MethodEntryEvent) {
          com.sun.jdi.Method method = ((MethodEntryEvent) event).method();
          recorder.enter(method.declaringType().name(), method.name());
        } else if (event instanceof MethodExitEvent) {
          recorder.exit();
        } else if (event instanceof ExceptionEvent) {
          com.sun.jdi.Location caught = ((ExceptionEvent) event).catchLocation();
          if (caught != null) {
            recorder.thrownTo(caught.declaringType().name(), caught.method().name());
          }
        } else if (event instanceof VMDeathEvent || event instanceof VMDisconnectEvent) {
          alive = false;
        }
      }
      events.resume();
    }
    out.join(10_000);
    err.join(10_000);
    recorder.output = output.toString(StandardCharsets.UTF_8)
        + errors.toString(StandardCharsets.UTF_8);
    return recorder;
  }

  /** The test's class path as the forked JVM sees it (Surefire names it when it hides it). */
  private static String classPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  private static Thread drain(InputStream in, ByteArrayOutputStream sink) {
    Thread thread = new Thread(() -> {
      try {
        in.transferTo(sink);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "call-path-output");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** The rooms entered, from the method entries and exits of the recorded thread. */
  static final class Recorder {
    private final Map<String, Integer> floors;
    /** Each frame's room ({@code driver/src/main/java/...}), or a passage, or the outside. */
    private final Deque<String> stack = new ArrayDeque<>();
    /** Each frame's method, {@code type#name}, beside {@link #stack}. */
    private final Deque<String> methods = new ArrayDeque<>();
    /** Each room, in the order first entered, with how many times it was entered. */
    final Map<String, Integer> rooms = new LinkedHashMap<>();
    /** Each call from one room into another (the method entered), with how many times. */
    final Map<String, Integer> calls = new LinkedHashMap<>();
    final List<String> reentered = new ArrayList<>();
    final List<String> climbs = new ArrayList<>();
    String output = "";

    private static final String PASSAGE = "(generated)";
    private static final String OUTSIDE = "(outside)";

    Recorder(Map<String, Integer> floors) {
      this.floors = floors;
    }

    void enter(String type, String method) {
      String room = roomOf(type);
      String caller = stack.stream().filter(f -> !f.equals(PASSAGE)).findFirst().orElse(OUTSIDE);
      stack.push(room);
      methods.push(type + "#" + method);
      if (room.equals(PASSAGE) || room.equals(OUTSIDE) || room.equals(caller)) {
        return;
      }
      rooms.merge(room, 1, Integer::sum);
      if (caller.equals(OUTSIDE)) {
        return; // called from outside: a fresh start
      }
      calls.merge(name(caller) + " -> " + name(room) + "." + method, 1, Integer::sum);
      boolean first = true;
      for (String frame : stack) { // from the top: the frame just pushed, then its callers
        if (first) {
          first = false;
        } else if (frame.equals(OUTSIDE)) {
          break;
        } else if (frame.equals(room)) {
          reentered.add(name(caller) + " -> " + name(room) + "." + method + " while in "
              + name(room));
          break;
        }
      }
      Integer from = floors.get(caller);
      Integer to = floors.get(room);
      if (from != null && to != null && to < from) {
        climbs.add(name(caller) + " (floor " + from + ") -> " + name(room) + " (floor " + to
            + ")");
      }
    }

    void exit() {
      stack.pop();
      methods.pop();
    }

    /**
     * An exception thrown, to be caught in {@code type.method}: JDI reports no exit of the frames
     * it unwinds, so they are popped here, down to the catching frame when it is one recorded
     * (one caught outside the recorded frames unwinds none of them).
     */
    void thrownTo(String type, String method) {
      String catcher = type + "#" + method;
      if (!methods.contains(catcher)) {
        return;
      }
      while (!methods.peek().equals(catcher)) {
        exit();
      }
    }

    int depth() {
      return stack.size();
    }

    /** The measured list, as the call-path block of {@code docs/architecture.md} writes it. */
    String report() {
      return "The rooms one call enters (" + rooms.size() + "), in the order first entered:\n"
          + rooms.entrySet().stream().map(r -> "  `" + r.getKey() + "` (floor "
              + (floors.containsKey(r.getKey()) ? floors.get(r.getKey()) : "?") + ")  entered "
              + r.getValue() + "x")
              .collect(Collectors.joining("\n"))
          + "\nThe calls between rooms:\n"
          + calls.entrySet().stream().map(c -> "  " + c.getKey() + "  " + c.getValue() + "x")
              .collect(Collectors.joining("\n"));
    }

    /** {@code dev.sluice.internal.limit.Limiter$1} is the room {@code Limiter.java}. */
    private static String roomOf(String type) {
      String top = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
      Path file = Path.of(top.replace('.', '/') + ".java");
      if (Files.exists(SOURCES.resolve(file))) {
        return "driver/" + SOURCES.resolve(file).toString().replace('\\', '/');
      }
      return Files.exists(GENERATED.resolve(file)) ? PASSAGE : OUTSIDE;
    }

    private static String name(String room) {
      return room.substring(room.lastIndexOf('/') + 1, room.length() - ".java".length());
    }
  }

  /** Loaded just before the recorded call: its preparation starts the recording. */
  static final class Begin {
    static void here() {}
  }

  /** Loaded just after it: stops the recording. */
  static final class End {
    static void here() {}
  }

  /**
   * The recorded JVM: a data source in the full configuration, warmed up by the same call (so
   * that no class is loaded or initialised inside the recording), then the call between the two
   * markers.
   */
  static final class OneCall {
    public static void main(String[] args) throws Exception {
      if (args.length > 0) {
        OtherPaths.main(args[0]);
        return;
      }
      FakeTicker ticker = new FakeTicker();
      AtomicBoolean open = new AtomicBoolean(true);
      Properties properties = new Properties();
      properties.setProperty("sluice.concurrency", "auto");
      properties.setProperty("sluice.recovery.settle", "1h");
      properties.setProperty("sluice.jmx", "false");
      try (RateLimitedDataSource ds = RateLimitedDataSource.builder(driver()).name("path")
          .properties(properties).budget(1_000).burst(1_000)
          .breakerFlag(BreakerFlag.of(open::get)).ticker(ticker).build()) {
        call(ds); // limiting
        open.set(false);
        for (int i = 0; i < 200; i++) {
          call(ds); // recovering: the same call, until nothing in it is new
        }
        Begin.here();
        call(ds);
        End.here();
        System.out.println("recovering=" + ds.stats().recovering());
        System.out.println("auto=" + (ds.stats().concurrencyLimit() > 0));
      }
    }

    private static void call(DataSource ds) throws Exception {
      Priority.CRITICAL.call(() -> {
        try (Connection connection = ds.getConnection();
            Statement statement = connection.createStatement()) {
          return statement.execute("update accounts set balance = balance - 1 where id = 1");
        }
      });
    }

    /** A driver of proxies that do nothing: auto-commit on, no rows. */
    private static DataSource driver() {
      Object statement = proxy(Statement.class, null);
      Object connection = proxy(Connection.class, statement);
      return (DataSource) proxy(DataSource.class, connection);
    }

    private static Object proxy(Class<?> type, Object made) {
      return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
          (self, method, args) -> {
            Class<?> returns = method.getReturnType();
            if (made != null && returns.isInstance(made)) {
              return made;
            }
            if (returns == boolean.class) {
              return method.getName().equals("getAutoCommit");
            }
            if (returns == int.class || returns == long.class) {
              return 0;
            }
            if (returns == ResultSet.class) {
              return null;
            }
            return method.getName().equals("toString") ? type.getSimpleName() : null;
          });
    }
  }

  /**
   * The recorded JVM for the other three paths, each warmed up by the same call 200 times: a read
   * with the flag closed ({@code closed}); a read the rate refuses, answers off ({@code refused});
   * a read the rate refuses and the answers answer from an identical read kept before
   * ({@code answered}, over H2). Each is a {@code createStatement()} and an
   * {@code executeQuery(String)} on a connection already held, its rows read, both closed.
   */
  static final class OtherPaths {
    static void main(String path) throws Exception {
      FakeTicker ticker = new FakeTicker();
      Properties properties = new Properties();
      properties.setProperty("sluice.jmx", "false");
      properties.setProperty("sluice.recovery.settle", "0");
      String url = "jdbc:h2:mem:path;DB_CLOSE_DELAY=-1";
      try (Connection keep = java.sql.DriverManager.getConnection(url);
          Statement s = keep.createStatement()) {
        s.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20))");
        s.execute("INSERT INTO items VALUES (1, 'one')");
      }
      boolean open = !path.equals("closed");
      if (path.equals("answered")) {
        properties.setProperty("sluice.stale.max-age", "1h");
      }
      try (RateLimitedDataSource ds = RateLimitedDataSource.builder(AnswersSeenTest.plain(url)).name("path-" + path)
          .properties(properties).budget(0.001).burst(1).breakerFlag(BreakerFlag.of(() -> open))
          .ticker(ticker).build(); Connection connection = ds.getConnection()) {
        read(connection); // admitted: the burst's one permit; kept, with answers on
        for (int i = 0; i < 200; i++) {
          read(connection); // refused (answered), or admitted with the flag closed
        }
        Begin.here();
        String got = read(connection);
        End.here();
        System.out.println("path=" + path + " got=" + got + " answered="
            + ds.stats().answered() + " rejected=" + ds.stats().rejected());
      }
    }

    private static String read(Connection connection) throws Exception {
      try (Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery("SELECT id, name FROM items WHERE id = 1")) {
        String got = "none";
        while (rs.next()) { // to the end: only a result read to its end is kept
          got = rs.getString(2);
        }
        return got;
      } catch (RateLimitExceededException refused) {
        return "refused";
      }
    }
  }
}
