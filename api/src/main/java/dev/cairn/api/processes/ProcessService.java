package dev.cairn.api.processes;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Service;

import dev.cairn.api.web.Cursor;
import dev.cairn.api.web.Page;
import dev.cairn.api.web.ProcessRefs;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.plugin.UnknownProcessTypeException;
import dev.cairn.engine.process.ExitCode;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.views.NodeViews;
import dev.cairn.storage.views.ProcessCriteria;
import dev.cairn.storage.views.ProcessDetailView;
import dev.cairn.storage.views.ProcessView;
import dev.cairn.storage.views.ProcessViews;

/**
 * Reading processes, for every surface of the server: lists filtered by a {@link ProcessFilter} and paged
 * by keyset (through the query builder, {@link ProcessViews}), one process with its inputs, outputs,
 * callees and exit code, its call tree, and the report of its tree's logs. Each request is one to three
 * statements.
 */
@Service
public class ProcessService {

    /** The orders a list takes, by name: newest first (the default), oldest first, or by the last change. */
    static final Map<String, ProcessViews.Sort> ORDERS = orders();

    /** The most processes a call tree shows. */
    static final int MAX_TREE = 100_000;

    private final ProcessViews views;
    private final NodeViews nodes;
    private final ProcessRefs refs;
    private final PluginRegistry plugins;

    ProcessService(Storage storage, ProcessRefs refs, PluginRegistry plugins) {
        this.views = storage.processes();
        this.nodes = storage.nodes();
        this.refs = refs;
        this.plugins = plugins;
    }

    private static Map<String, ProcessViews.Sort> orders() {
        Map<String, ProcessViews.Sort> orders = new LinkedHashMap<>();
        orders.put("-ctime", ProcessViews.Sort.NEWEST_FIRST);
        orders.put("ctime", ProcessViews.Sort.OLDEST_FIRST);
        orders.put("-mtime", ProcessViews.Sort.LAST_CHANGED_FIRST);
        orders.put("mtime", ProcessViews.Sort.FIRST_CHANGED_FIRST);
        return Map.copyOf(orders);
    }

    /** The id of the process {@code ref} names (its uuid, a unique prefix, or pk:42); a data node is a 404. */
    public long id(String ref) {
        return refs.id(ref);
    }

    /** A page of the processes {@code filter} matches, in {@code order}, after {@code cursor}. */
    public Page<ProcessSummary> list(ProcessFilter filter, String order, String cursor, int limit, boolean count) {
        ProcessViews.Sort sort = ORDERS.get(order);
        if (sort == null) {
            throw new InvalidInputException(
                    "order '" + order + "' is not one of " + List.of("-ctime", "ctime", "-mtime", "mtime"));
        }
        ProcessCriteria criteria = criteria(filter);
        Long total = count ? views.count(criteria) : null;
        ProcessViews.After after = null;
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor, order);
            try {
                after = new ProcessViews.After(
                        OffsetDateTime.parse((String) c.after().get(0)),
                        ((Number) c.after().get(1)).longValue());
            } catch (RuntimeException e) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor of this list");
            }
        }
        List<ProcessView> rows = views.list(criteria, sort, after, limit + 1);
        String next = null;
        if (rows.size() > limit) {
            rows = rows.subList(0, limit);
            ProcessView last = rows.getLast();
            OffsetDateTime at = sort.byMtime() ? last.mtime() : last.ctime();
            next = new Cursor(order, List.of(at.toString(), last.id())).encode();
        }
        return new Page<>(rows.stream().map(ProcessService::summary).toList(), next, total);
    }

    /** One process as lists show it. */
    public ProcessSummary summary(long id) {
        return views.summary(id)
                .map(ProcessService::summary)
                .orElseThrow(() -> new NotFoundException("process " + id + " is gone"));
    }

    /** The ids of the processes {@code filter} matches that are also as {@code also} says, oldest first. */
    List<Long> ids(ProcessFilter filter, ProcessCriteria also, int limit) {
        return views.ids(criteria(filter), also, limit);
    }

    /** The uuids of processes, by id. */
    Map<Long, UUID> uuids(List<Long> ids) {
        return nodes.uuidsOf(ids);
    }

    /** The process {@code ref} names with its inputs, outputs, caller, called processes and how it ended. */
    public ProcessDetail show(String ref) {
        long id = refs.id(ref);
        ProcessDetailView d = views.detail(id).orElseThrow(() -> new NotFoundException("process " + id + " is gone"));
        ProcessSummary summary = summary(d.process());
        Map<String, Object> attributes = d.attributes();
        ProcessDetail.Job job = "calcjob".equals(summary.kind())
                ? new ProcessDetail.Job(
                        (String) attributes.get("job_id"),
                        (String) attributes.get("remote_workdir"),
                        (String) attributes.get("scheduler_state"),
                        attributes.get("scheduler_lastchecktime") instanceof String checked
                                ? OffsetDateTime.parse(checked)
                                : null,
                        lastJobInfo(attributes.get("last_job_info")),
                        d.computerLabel())
                : null;
        return new ProcessDetail(
                summary,
                d.description(),
                ports(d.inputs()),
                ports(d.outputs()),
                d.called().stream().map(ProcessService::summary).toList(),
                exitCode(summary, (String) attributes.get("exit_message")),
                (String) attributes.get("exception"),
                job,
                d.cachedFrom());
    }

    /**
     * What each of the ended processes said, by uuid: the first line of its exception if it excepted, else its
     * exit message (or the one its process type declares for its exit status), else nothing. One query for all.
     */
    public Map<UUID, String> endMessages(List<ProcessSummary> ended) {
        Map<Long, ProcessViews.Ending> endings =
                views.endings(ended.stream().map(ProcessSummary::pk).toList());
        Map<UUID, String> messages = new HashMap<>();
        for (ProcessSummary p : ended) {
            ProcessViews.Ending ending = endings.get(p.pk());
            if (ending == null) {
                continue;
            }
            String exception = ending.exception();
            ProcessDetail.ExitCodeRef exit = exitCode(p, ending.exitMessage());
            messages.put(
                    p.uuid(),
                    exception != null && !exception.isBlank()
                            ? exception.lines().findFirst().orElse("")
                            : exit == null ? "" : exit.message());
        }
        return messages;
    }

    /** The process {@code ref} names and every process it called, directly or not, as a tree. */
    public ProcessTreeNode tree(String ref) {
        long root = refs.id(ref);
        Map<Long, ProcessTreeNode> byId = new HashMap<>();
        ProcessTreeNode top = null;
        for (ProcessViews.TreeEntry entry : views.tree(root, MAX_TREE)) {
            ProcessTreeNode node = new ProcessTreeNode(summary(entry.process()));
            byId.put(entry.process().id(), node);
            ProcessTreeNode caller = entry.callerId() == null ? null : byId.get(entry.callerId());
            if (caller != null) {
                caller.called().add(node);
            } else if (top == null) {
                top = node;
            }
        }
        if (top == null) {
            throw new NotFoundException("process " + root + " is gone");
        }
        return top;
    }

    /**
     * The log records of every process of the tree of the process {@code ref} names, at the level named
     * {@code level} (DEBUG, INFO, REPORT, WARNING, ERROR, CRITICAL) or above, oldest first, a page of
     * {@code limit} after {@code cursor}.
     */
    public Page<ReportEntry> report(String ref, String level, String cursor, int limit) {
        long root = refs.id(ref);
        LogLevel minimum = LogLevel.of(level.toUpperCase(Locale.ROOT));
        String order = "time";
        ProcessViews.ReportAfter after = null;
        if (cursor != null) {
            Cursor c = Cursor.decode(cursor, order);
            try {
                after = new ProcessViews.ReportAfter(
                        OffsetDateTime.parse((String) c.after().get(0)),
                        ((Number) c.after().get(1)).longValue());
            } catch (RuntimeException e) {
                throw new InvalidInputException("'" + cursor + "' is not a cursor of this report");
            }
        }
        List<String> levels = minimum.andAbove().stream().map(LogLevel::name).toList();
        List<ProcessViews.ReportLine> lines = views.report(root, levels, after, limit + 1);
        String next = null;
        if (lines.size() > limit) {
            lines = lines.subList(0, limit);
            ProcessViews.ReportLine last = lines.getLast();
            next = new Cursor(order, List.of(last.time().toString(), last.id())).encode();
        }
        List<ReportEntry> entries = lines.stream()
                .map(l ->
                        new ReportEntry(l.time(), l.level(), l.process(), l.processId(), l.processType(), l.message()))
                .toList();
        return new Page<>(entries, next, null);
    }

    /** The filter as the graph's criteria: processes named resolved, states checked, patterns read. */
    ProcessCriteria criteria(ProcessFilter f) {
        return new ProcessCriteria(
                f.processes() == null
                        ? null
                        : f.processes().stream().map(refs::id).toList(),
                f.states() == null ? null : states(f.states()),
                f.type() == null ? null : pattern(f.type(), "type"),
                f.kinds() == null ? null : ProcessSummary.nodeTypes(f.kinds()),
                f.label() == null ? null : pattern(f.label(), "label"),
                f.exitStatus(),
                f.failed(),
                f.paused(),
                f.since(),
                f.until(),
                f.caller() == null ? null : refs.id(f.caller()),
                f.topLevel(),
                f.group());
    }

    /** The states given, checked. */
    static List<String> states(List<String> given) {
        List<String> valid =
                Arrays.stream(ProcessState.values()).map(ProcessState::dbValue).toList();
        for (String s : given) {
            if (!valid.contains(s)) {
                throw new InvalidInputException("state '" + s + "' is not a process state; the states are " + valid
                        + ("running".equals(s) ? " (a step is one transaction: no process is ever seen running)" : ""));
            }
        }
        return given;
    }

    /** Exactly {@code value}, or values beginning with what comes before its final '*'. */
    private static ProcessCriteria.Match pattern(String value, String name) {
        if (!value.endsWith("*")) {
            return ProcessCriteria.Match.exactly(value);
        }
        String prefix = value.substring(0, value.length() - 1);
        if (prefix.contains("*")) {
            throw new InvalidInputException(name + " '" + value + "': '*' may only end it (a prefix)");
        }
        return ProcessCriteria.Match.beginning(prefix);
    }

    private ProcessDetail.ExitCodeRef exitCode(ProcessSummary summary, String exitMessage) {
        if (summary.exitStatus() == null) {
            return null;
        }
        int status = summary.exitStatus();
        ExitCode declared = null;
        if (status == 0) {
            declared = ExitCode.OK;
        } else {
            try {
                declared = plugins.get(summary.entryPoint()).spec().exitCodes().get(status);
            } catch (UnknownProcessTypeException e) {
                // a process of a plugin this server does not load: its status alone
            }
        }
        String message = exitMessage != null && !exitMessage.isEmpty()
                ? exitMessage
                : declared == null ? "" : declared.message();
        return new ProcessDetail.ExitCodeRef(status, declared == null ? null : declared.label(), message);
    }

    /** Linked nodes by port path. */
    /** The node's {@code last_job_info}, a JSON object, or null when it has none (or an imported node holds something else). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> lastJobInfo(Object attribute) {
        return attribute instanceof Map<?, ?> info ? (Map<String, Object>) info : null;
    }

    private static Map<String, ProcessDetail.NodeRef> ports(Map<String, ProcessDetailView.Linked> links) {
        Map<String, ProcessDetail.NodeRef> ports = new LinkedHashMap<>();
        links.forEach((label, n) -> ports.put(
                ProcessSpec.portPath(label), new ProcessDetail.NodeRef(n.uuid(), n.id(), n.nodeType(), n.value())));
        return ports;
    }

    static ProcessSummary summary(ProcessView p) {
        return new ProcessSummary(
                p.uuid(),
                p.id(),
                p.processType(),
                ProcessSummary.kind(p.nodeType()),
                p.label(),
                p.state(),
                p.paused(),
                p.exitStatus(),
                p.processStatus(),
                p.ctime(),
                p.mtime(),
                p.user(),
                p.caller());
    }
}
