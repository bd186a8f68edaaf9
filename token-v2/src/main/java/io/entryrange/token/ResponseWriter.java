package io.entryrange.token;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * Writes one response with a generator, as Iceberg's response parsers' {@code toJson(response,
 * gen)} do: the one shape every writer of a plan, planning-result, {@code /tasks} or credentials
 * response has here, whether the service measures it against its response target or a host holds
 * it to its hard limit.
 *
 * @param <R> the response type
 */
@FunctionalInterface
public interface ResponseWriter<R> {
  void write(R response, JsonGenerator gen) throws IOException;
}
