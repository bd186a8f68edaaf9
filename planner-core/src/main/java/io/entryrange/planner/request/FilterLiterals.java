package io.entryrange.planner.request;

import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Literal;
import org.apache.iceberg.expressions.NamedReference;
import org.apache.iceberg.expressions.Not;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Checks that every literal of a filter converts to the type of the column it is compared with,
 * and where one does not, says which column, its type and the form expected.
 *
 * <p>Why: Iceberg's binder reports such a literal as "Invalid value for conversion to type ..." or,
 * for text that is not a date or time, lets a bare {@code DateTimeParseException} through ("Text
 * '1999-12-31T10:00:00' could not be parsed at index 19"), naming neither the column nor what
 * would have been accepted; a timestamp without a zone on a {@code timestamptz} column is the
 * common case. The conversion is Iceberg's own ({@link Literal#to}), so this accepts exactly the
 * literals the binder accepts. Terms that are transforms, and names the schema does not have, are
 * left to the binder.
 */
public final class FilterLiterals {
  private FilterLiterals() {}

  /**
   * @throws IllegalArgumentException naming the literal, the column, its type and the expected
   *     form, for the first literal that does not convert
   */
  public static void check(Schema schema, Expression filter, boolean caseSensitive) {
    if (filter instanceof And and) {
      check(schema, and.left(), caseSensitive);
      check(schema, and.right(), caseSensitive);
    } else if (filter instanceof Or or) {
      check(schema, or.left(), caseSensitive);
      check(schema, or.right(), caseSensitive);
    } else if (filter instanceof Not not) {
      check(schema, not.child(), caseSensitive);
    } else if (filter instanceof UnboundPredicate<?> predicate
        && predicate.term() instanceof NamedReference<?> reference) {
      Types.NestedField field =
          caseSensitive
              ? schema.findField(reference.name())
              : schema.caseInsensitiveFindField(reference.name());
      if (field == null || !field.type().isPrimitiveType()) {
        return;
      }
      List<? extends Literal<?>> literals =
          predicate.literals() != null
              ? predicate.literals()
              : predicate.literal() != null ? List.of(predicate.literal()) : List.of();
      for (Literal<?> literal : literals) {
        if (!converts(literal, field.type())) {
          throw new IllegalArgumentException(
              String.format(
                  Locale.ROOT,
                  "Invalid literal %s for column %s of type %s: expected %s",
                  literal,
                  schema.findColumnName(field.fieldId()),
                  field.type(),
                  expectedForm(field.type())));
        }
      }
    }
  }

  private static boolean converts(Literal<?> literal, Type type) {
    try {
      return literal.to(type) != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** What a client should send for a column of {@code type}, with an example. */
  static String expectedForm(Type type) {
    return switch (type.typeId()) {
      case BOOLEAN -> "true or false";
      case INTEGER, LONG -> "an integer, such as 42";
      case FLOAT, DOUBLE -> "a number, such as 1.5";
      case DECIMAL ->
          String.format(
              Locale.ROOT,
              "a number with %d digits after the point, such as %s",
              ((Types.DecimalType) type).scale(),
              decimalExample(((Types.DecimalType) type).scale()));
      case DATE -> "an ISO-8601 date, such as 1999-12-31";
      case TIME -> "an ISO-8601 time, such as 10:15:30";
      case TIMESTAMP, TIMESTAMP_NANO ->
          adjustsToUtc(type)
              ? "an ISO-8601 date-time with a zone offset, such as 1999-12-31T10:15:30+00:00"
              : "an ISO-8601 date-time without a zone offset, such as 1999-12-31T10:15:30";
      case STRING -> "a string";
      case UUID -> "a UUID, such as 123e4567-e89b-12d3-a456-426614174000";
      case FIXED ->
          String.format(
              Locale.ROOT,
              "%d bytes in hexadecimal, such as %s",
              ((Types.FixedType) type).length(),
              "0A".repeat(((Types.FixedType) type).length()));
      case BINARY -> "bytes in hexadecimal, such as 0A1B";
      default -> "a literal of type " + type;
    };
  }

  private static boolean adjustsToUtc(Type type) {
    return type instanceof Types.TimestampType timestamp
        ? timestamp.shouldAdjustToUTC()
        : ((Types.TimestampNanoType) type).shouldAdjustToUTC();
  }

  private static String decimalExample(int scale) {
    return scale == 0 ? "12" : "12." + "3".repeat(scale);
  }
}
