package dev.cairn.api.query;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.stereotype.Service;

import dev.cairn.api.web.Cursor;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.UndecodedJson;

/**
 * Queries of the query builder, for every surface of the server: a page of rows at a time (pages taken by
 * position, with a cursor that belongs to one query), or every row through a database cursor.
 */
@Service
public class QueryService {

    private final Storage storage;

    QueryService(Storage storage) {
        this.storage = storage;
    }

    /**
     * A page of a query's rows.
     *
     * @param rows  at most the page's size
     * @param next  the cursor of the next page, or null at the end
     * @param total every row of the query, counted in the database; null unless asked for
     */
    public record RowPage(List<Row> rows, String next, Long total) {}

    /** The page of {@code size} rows after {@code cursor} (null: the first); with {@code count}, the total too. */
    public RowPage page(QuerySpec spec, int size, String cursor, boolean count) {
        String fingerprint = fingerprint(spec);
        long position = cursor == null ? 0 : position(cursor, fingerprint);
        long start = (spec.offset() == null ? 0 : spec.offset()) + position;
        long take = size + 1L;
        if (spec.limit() != null) {
            take = Math.min(take, Math.max(0, spec.limit() - position));
        }
        List<Row> rows = take == 0
                ? List.of()
                : storage.query(new QuerySpec(
                                spec.path(),
                                spec.orderBy(),
                                take,
                                start == 0 ? null : start,
                                spec.distinct(),
                                spec.after()))
                        .all();
        Long total = count ? storage.query(spec).count() : null;
        String next = rows.size() > size ? new Cursor(fingerprint, List.of(position + size)).encode() : null;
        return new RowPage(rows.size() > size ? rows.subList(0, size) : rows, next, total);
    }

    /** Every row, through a database cursor that is open until the stream is closed. */
    public Stream<Row> stream(QuerySpec spec) {
        return storage.query(spec).stream();
    }

    /**
     * Every row as {@link #stream}, its JSON values left as the database's text ({@link UndecodedJson}): for
     * answers written as JSON, which copy that text instead of decoding and encoding it again.
     */
    public Stream<Row> streamForJson(QuerySpec spec) {
        return storage.query(spec).withJsonAsText().stream();
    }

    private static long position(String cursor, String fingerprint) {
        List<Object> after = Cursor.decode(cursor, fingerprint).after();
        if (after.size() != 1 || !(after.getFirst() instanceof Long p) || p < 0) {
            throw new InvalidInputException("'" + cursor + "' is not a cursor this server made");
        }
        return p;
    }

    /** Names a query, so that a cursor is refused with another body. */
    private static String fingerprint(QuerySpec spec) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(spec.toJson().getBytes(StandardCharsets.UTF_8));
            return "query " + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
