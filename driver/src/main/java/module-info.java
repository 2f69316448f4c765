/**
 * Sluice: caps the load on a database while the cache in front of it is down.
 *
 * <p>The whole API is the package {@code dev.sluice}; everything else is internal.
 */
module dev.sluice {
  requires transitive java.sql;
  requires org.slf4j;
  requires redis.clients.jedis;
  requires org.apache.commons.pool2;
  requires java.management;
  // only SluiceMetrics, which users call only with Micrometer; transitive: its API shows Micrometer's
  // types, so a module that uses it reads micrometer.core too
  requires static transitive micrometer.core;
  // only internal.trace.OpenTelemetryDecisions, loaded by name where the API is present
  requires static io.opentelemetry.api;
  // only internal.trace.ObservationDecisions, loaded by name where Micrometer's observation API is
  requires static micrometer.observation;
  requires static micrometer.commons; // its KeyValue, made once per value

  exports dev.sluice;

  provides java.sql.Driver with dev.sluice.SluiceDriver;
}
