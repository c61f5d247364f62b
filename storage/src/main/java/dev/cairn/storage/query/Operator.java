package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;

/**
 * The comparison operators of a filter. Any of them can be negated in the JSON form with a
 * {@code ~} or {@code !} prefix ({@code ~in}, {@code !like}); {@code !=} is the negation of {@code ==}.
 */
public enum Operator {
    EQ("=="),
    GT(">"),
    LT("<"),
    GE(">="),
    LE("<="),
    IN("in"),
    LIKE("like"),
    ILIKE("ilike"),
    HAS_KEY("has_key"),
    CONTAINS("contains"),
    OF_LENGTH("of_length"),
    LONGER("longer"),
    SHORTER("shorter"),
    OF_TYPE("of_type");

    private final String symbol;

    Operator(String symbol) {
        this.symbol = symbol;
    }

    /** The operator's name in the JSON form. */
    public String symbol() {
        return symbol;
    }

    boolean isComparison() {
        return this == GT || this == LT || this == GE || this == LE;
    }

    boolean isLength() {
        return this == OF_LENGTH || this == LONGER || this == SHORTER;
    }

    static List<String> symbols() {
        return Arrays.stream(values()).map(Operator::symbol).toList();
    }

    /** A JSON operator name, with its negation if it has one. */
    record Parsed(Operator operator, boolean negated) {}

    static Parsed parse(String name, String where) {
        if (name.equals("!=")) {
            return new Parsed(EQ, true);
        }
        boolean negated = name.startsWith("~") || name.startsWith("!");
        String bare = negated ? name.substring(1) : name;
        for (Operator op : values()) {
            if (op.symbol.equals(bare)) {
                return new Parsed(op, negated);
            }
        }
        throw new InvalidQueryException(where + ": unknown operator '" + name + "'; operators are " + symbols()
                + " and != , each negated by a ~ or ! prefix, and the combinators and, or, not");
    }
}
