package dev.cairn.storage.query;

import java.util.EnumSet;
import java.util.Set;

/** What a column holds, which decides the operators it takes and how its values are bound and read. */
enum ColumnKind {
    LONG(EnumSet.of(Operator.EQ, Operator.GT, Operator.LT, Operator.GE, Operator.LE, Operator.IN)),
    TEXT(EnumSet.of(
            Operator.EQ,
            Operator.GT,
            Operator.LT,
            Operator.GE,
            Operator.LE,
            Operator.IN,
            Operator.LIKE,
            Operator.ILIKE)),
    UUID(EnumSet.of(Operator.EQ, Operator.IN, Operator.LIKE)),
    TIMESTAMP(EnumSet.of(Operator.EQ, Operator.GT, Operator.LT, Operator.GE, Operator.LE, Operator.IN)),
    JSON(EnumSet.allOf(Operator.class));

    private final Set<Operator> operators;

    ColumnKind(Set<Operator> operators) {
        this.operators = operators;
    }

    Set<Operator> operators() {
        return operators;
    }
}
