package dev.cairn.api.pages.processes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.springframework.stereotype.Component;

import dev.cairn.api.processes.ProcessFilter;
import dev.cairn.api.processes.ProcessService;
import dev.cairn.api.processes.ProcessSummary;
import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;

/**
 * The process list's pages, newest first, by keyset both ways: a page after a cursor is the service's
 * next page; a page before one is read oldest first from there and turned round, so that neither way
 * counts or skips rows however deep the list is. The cursors are the service's own.
 */
@Component
class ListPaging {

    static final String NEWEST_FIRST = "-ctime";
    static final String OLDEST_FIRST = "ctime";

    /**
     * One page of the list.
     *
     * @param previous the cursor of the page before it (for {@code before}), null on the first page
     * @param next     the cursor of the page after it (for {@code after}), null on the last page
     */
    record Rows(List<ProcessSummary> items, String previous, String next) {}

    private final ProcessService processes;

    ListPaging(ProcessService processes) {
        this.processes = processes;
    }

    /** The page after {@code after}, or before {@code before} (both null: the first page). */
    Rows page(ProcessFilter filter, String after, String before, int limit) {
        if (before != null) {
            Page<ProcessSummary> back = processes.list(filter, OLDEST_FIRST, before, limit, false);
            List<ProcessSummary> items = new ArrayList<>(back.items());
            Collections.reverse(items);
            if (items.isEmpty()) {
                return page(filter, null, null, limit);
            }
            return new Rows(items, back.next() == null ? null : before(items.getFirst()), after(items.getLast()));
        }
        Page<ProcessSummary> page = processes.list(filter, NEWEST_FIRST, after, limit, false);
        List<ProcessSummary> items = page.items();
        String previous = after == null || items.isEmpty() ? null : before(items.getFirst());
        return new Rows(items, previous, page.next());
    }

    /** The cursor of the page of what comes before {@code first} (newer processes). */
    private static String before(ProcessSummary first) {
        return new Cursor(OLDEST_FIRST, List.of(first.ctime().toString(), first.pk())).encode();
    }

    private static String after(ProcessSummary last) {
        return new Cursor(NEWEST_FIRST, List.of(last.ctime().toString(), last.pk())).encode();
    }
}
