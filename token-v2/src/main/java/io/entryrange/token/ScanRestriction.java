package io.entryrange.token;

import io.entryrange.planner.request.ScanRequests;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.relocated.com.google.common.base.Preconditions;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.types.Types;

/**
 * The narrowing a {@link ScanPolicy} usually returns: a row filter ANDed with the requested one,
 * the projection limited to permitted columns, column stats withheld or limited the same way.
 *
 * <p>Narrowing is monotone: the result never reads a row, column or stat the request did not ask
 * for. Column names are top-level names as the table schema spells them.
 *
 * @param rowFilter rows the principal may read; {@code alwaysTrue()} for all
 * @param columns columns the principal may read, or null for all
 * @param stats whether column stats may be returned (only for permitted columns)
 */
public record ScanRestriction(Expression rowFilter, Set<String> columns, boolean stats) {

  public ScanRestriction {
    Preconditions.checkArgument(rowFilter != null, "Invalid row filter: null");
    columns = columns == null ? null : Set.copyOf(columns);
  }

  /** Only the rows {@code filter} selects; every column and stat. */
  public static ScanRestriction rows(Expression filter) {
    return new ScanRestriction(filter, null, true);
  }

  /** {@code requested}, narrowed. */
  public PlanTableScanRequest narrow(Table table, PlanTableScanRequest requested) {
    Expression filter =
        requested.filter() == null ? rowFilter : Expressions.and(requested.filter(), rowFilter);
    return ScanRequests.copyOf(requested)
        .withSelect(select(table, requested))
        .withFilter(filter.equals(Expressions.alwaysTrue()) ? requested.filter() : filter)
        .withStatsFields(stats ? permitted(requested.statsFields()) : null)
        .build();
  }

  private List<String> select(Table table, PlanTableScanRequest requested) {
    if (columns == null) {
      return requested.select();
    }
    if (requested.select() == null) {
      return boundSchema(table, requested).columns().stream()
          .map(Types.NestedField::name)
          .filter(columns::contains)
          .toList();
    }
    return permitted(requested.select());
  }

  /**
   * The schema a scan of the pinned snapshot binds to, as {@code useSnapshot} does, so an old
   * snapshot's scan is not given columns that snapshot does not have.
   */
  private static Schema boundSchema(Table table, PlanTableScanRequest requested) {
    return ScanRequests.schemaOf(table, requested.snapshotId());
  }

  private List<String> permitted(List<String> names) {
    return names == null || columns == null
        ? names
        : names.stream().filter(columns::contains).toList();
  }
}
