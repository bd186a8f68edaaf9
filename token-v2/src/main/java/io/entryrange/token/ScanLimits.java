package io.entryrange.token;

import io.entryrange.planner.request.FilterLiterals;
import io.entryrange.planner.request.ScanRequests;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.expressions.Not;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;

/**
 * What a scan request may ask for, checked before any manifest is read, for requests and for the
 * scans inside plan tasks alike: a client mistake found here is a 400 naming the cause (or, inside
 * a plan task, a rejected plan task), where found later it would be a server error from deep inside
 * Iceberg (a {@code NullPointerException} for an unknown stats field, a {@code
 * DateTimeParseException} for a literal that is not a timestamp). A literal that does not convert
 * to its column's type is named with the column, its type and the form expected ({@link
 * FilterLiterals}).
 *
 * <p>The literal limits bound the work and the response a filter can cause: every task of a scan
 * carries its residual, so an {@code in} list of {@code n} literals costs about {@code n} times the
 * tasks in the response. The depth limit is {@link PlanTaskCodec#MAX_FILTER_DEPTH}, so every
 * request this check accepts can also be carried by a plan task and written back as a residual.
 *
 * @param maxLiteralsPerPredicate most literals one {@code in} or {@code not-in} predicate may list
 * @param maxLiterals most literals in the whole filter
 */
public record ScanLimits(int maxLiteralsPerPredicate, int maxLiterals) {
  /** Roomy enough for the long {@code in} lists engines push down, small enough to bound work. */
  public static final ScanLimits DEFAULT = new ScanLimits(16_384, 16_384);

  public ScanLimits {
    Preconditions.checkArgument(
        maxLiteralsPerPredicate > 0,
        "Invalid max literals per predicate: %s",
        maxLiteralsPerPredicate);
    Preconditions.checkArgument(
        maxLiterals >= maxLiteralsPerPredicate,
        "Invalid max literals: %s, below the max literals per predicate %s",
        maxLiterals,
        maxLiteralsPerPredicate);
  }

  /**
   * Checks a request against {@code table}: filter depth and literal counts, then that the filter
   * binds to the schema the scan reads, and that every {@code select} and {@code stats-fields}
   * column exists in it.
   *
   * @throws IllegalArgumentException naming the limit and its value, or the bad literal or term
   * @throws ValidationException for a column the schema does not have
   */
  public void check(Table table, PlanTableScanRequest request) {
    Expression filter = request.filter();
    if (filter != null) {
      int literals = literals(filter, 1);
      Preconditions.checkArgument(
          literals <= maxLiterals,
          "Invalid filter: %s literals, over the limit max-literals=%s",
          literals,
          maxLiterals);
    }
    Schema schema = ScanRequests.schemaOf(table, request.snapshotId());
    if (filter != null) {
      FilterLiterals.check(schema, filter, request.caseSensitive());
      bind(schema, filter, request.caseSensitive());
    }
    requireSelected(schema, request.select(), request.caseSensitive());
    if (request.statsFields() != null) {
      ScanRequests.statsColumns(schema, request.statsFields(), request.caseSensitive());
    }
  }

  /** Literals in {@code expr}, failing on the first predicate or level over a limit. */
  private int literals(Expression expr, int depth) {
    Preconditions.checkArgument(
        depth <= PlanTaskCodec.MAX_FILTER_DEPTH,
        "Invalid filter: nested deeper than the limit max-filter-depth=%s",
        PlanTaskCodec.MAX_FILTER_DEPTH);
    if (expr instanceof And and) {
      return literals(and.left(), depth + 1) + literals(and.right(), depth + 1);
    } else if (expr instanceof Or or) {
      return literals(or.left(), depth + 1) + literals(or.right(), depth + 1);
    } else if (expr instanceof Not not) {
      return literals(not.child(), depth + 1);
    } else if (expr instanceof UnboundPredicate<?> predicate) {
      List<?> values = predicate.literals();
      int count = values == null ? (predicate.literal() == null ? 0 : 1) : values.size();
      Preconditions.checkArgument(
          count <= maxLiteralsPerPredicate,
          "Invalid filter: %s literals in one %s predicate, over the limit"
              + " max-literals-per-predicate=%s",
          count,
          predicate.op(),
          maxLiteralsPerPredicate);
      if (values != null) {
        values.forEach(ScanLimits::requireEncodable);
      } else if (predicate.literal() != null) {
        requireEncodable(predicate.literal());
      }
      return count;
    }
    return 0;
  }

  /**
   * A string literal must be well-formed Unicode: one with an unpaired surrogate (JSON can carry
   * {@code "\\ud800"}) cannot be encoded as UTF-8, which Iceberg does when it compares the literal
   * with manifest bounds, so it would fail deep inside planning instead of here as a 400.
   */
  private static void requireEncodable(Object literal) {
    Object value = literal instanceof Literal<?> wrapped ? wrapped.value() : literal;
    if (value instanceof CharSequence text) {
      Preconditions.checkArgument(
          StandardCharsets.UTF_8.newEncoder().canEncode(text),
          "Invalid filter: a string literal is not well-formed Unicode (an unpaired surrogate)");
    }
  }

  /**
   * Binds the filter the way the scan will, so a literal that does not convert to its column's
   * type, or a transform that does not apply to it, fails here with its cause.
   */
  private static void bind(Schema schema, Expression filter, boolean caseSensitive) {
    try {
      Binder.bind(schema.asStruct(), filter, caseSensitive);
    } catch (ValidationException | IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          String.format("Invalid filter: %s (%s)", e.getMessage(), e.getClass().getSimpleName()),
          e);
    }
  }

  private static void requireSelected(Schema schema, List<String> columns, boolean caseSensitive) {
    if (columns == null) {
      return;
    }
    for (String column : columns) {
      Types.NestedField found =
          caseSensitive ? schema.findField(column) : schema.caseInsensitiveFindField(column);
      // engines project metadata columns (_file, _pos, _spec_id, _partition and its fields such
      // as _partition.region) that Iceberg's scans accept
      String head = column.split("\\.", 2)[0];
      ValidationException.check(
          found != null
              || MetadataColumns.isMetadataColumn(
                  caseSensitive ? head : head.toLowerCase(Locale.ROOT)),
          "Invalid select: cannot find column '%s' in the table schema",
          column);
    }
  }
}
