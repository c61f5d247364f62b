package dev.cairn.api.archives;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.api.codes.StoredCodes;
import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.web.NodeRefs;
import dev.cairn.engine.Engine;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * An export's query parameters as an {@link ExportRequest}: the groups, nodes, computers and codes they
 * name resolved to ids, the rules switched. A name in the query that names nothing is the request's
 * fault, a 400 naming the parameter (not a 404: the URL's resource, the archive, exists).
 */
@Component
class ExportRequests {

    private static final Pattern UUID_FORM =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern PK = Pattern.compile("(pk:)?[0-9]{1,18}");

    /** What the query names. */
    record Selection(
            boolean all,
            List<String> groups,
            List<String> nodes,
            List<String> computers,
            List<String> codes,
            List<String> enable,
            List<String> disable,
            boolean comments,
            boolean logs,
            boolean authinfos) {}

    private final Engine engine;
    private final NodeRefs nodes;
    private final ComputerRefs computers;
    private final StoredCodes codes;

    ExportRequests(Engine engine, NodeRefs nodes, ComputerRefs computers, StoredCodes codes) {
        this.engine = engine;
        this.nodes = nodes;
        this.computers = computers;
        this.codes = codes;
    }

    ExportRequest of(Selection s) {
        boolean named = !s.groups().isEmpty()
                || !s.nodes().isEmpty()
                || !s.computers().isEmpty()
                || !s.codes().isEmpty();
        if (s.all() && named) {
            throw new InvalidInputException(
                    "all=true exports everything: give it alone, or name groups, nodes, computers or codes instead");
        }
        if (!s.all() && !named) {
            throw new InvalidInputException("nothing to export: give all=true, or name what to start from with group=,"
                    + " node=, computer= or code= (each repeatable)");
        }
        ExportRequest request;
        if (s.all()) {
            request = ExportRequest.ofEverything();
        } else {
            Set<Long> nodeIds = new LinkedHashSet<>();
            s.nodes().forEach(ref -> nodeIds.add(inQuery("node", () -> node(ref))));
            s.codes()
                    .forEach(ref ->
                            nodeIds.add(inQuery("code", () -> codes.find(ref).id())));
            Set<Long> groupIds = new LinkedHashSet<>();
            s.groups().forEach(ref -> groupIds.add(inQuery("group", () -> group(ref))));
            Set<Long> computerIds = new LinkedHashSet<>();
            s.computers().forEach(ref -> computerIds.add(inQuery("computer", () -> computer(ref))));
            request = ExportRequest.of(ids(nodeIds), ids(groupIds), ids(computerIds));
        }
        return request.withRules(rules(s.enable(), s.disable()))
                .withComments(s.comments())
                .withLogs(s.logs())
                .withAuthinfos(s.authinfos());
    }

    /** The EXPORT rules with the toggleable ones switched as asked; a rule named twice is refused. */
    static TraversalRules rules(List<String> enable, List<String> disable) {
        Set<String> seen = new LinkedHashSet<>();
        TraversalRules rules = TraversalRules.EXPORT;
        rules = switched(rules, "enable", enable, true, seen);
        return switched(rules, "disable", disable, false, seen);
    }

    private static TraversalRules switched(
            TraversalRules rules, String parameter, List<String> names, boolean on, Set<String> seen) {
        for (String name : names) {
            String rule = name.strip().toLowerCase(Locale.ROOT);
            if (!seen.add(rule)) {
                throw new InvalidInputException(
                        "traversal rule '" + rule + "' is named twice; enable or disable each rule once");
            }
            try {
                rules = rules.with(rule, on);
            } catch (InvalidInputException e) {
                throw new InvalidInputException("parameter '" + parameter + "': " + e.getMessage());
            }
        }
        return rules;
    }

    /** A node by PK ({@code 42}, {@code pk:42}) when one has it, else by uuid or a unique prefix of one. */
    private long node(String ref) {
        String r = ref.strip().toLowerCase(Locale.ROOT);
        if (PK.matcher(r).matches()) {
            long pk = Long.parseLong(r.startsWith("pk:") ? r.substring(3) : r);
            if (exists("SELECT 1 FROM node WHERE id = ?", pk)) {
                return pk;
            }
            if (r.startsWith("pk:") || r.length() < 4) {
                throw new NotFoundException("no node has the PK " + pk);
            }
        }
        return nodes.id(r);
    }

    /** A group by uuid, else by label: a {@code core} group's first, else the one group of another type. */
    private long group(String ref) {
        if (UUID_FORM.matcher(ref).matches()) {
            try {
                var byUuid = new GroupStore(engine.database()).find(UUID.fromString(ref));
                if (byUuid.isPresent()) {
                    return byUuid.get().id();
                }
            } catch (SQLException e) {
                throw new StorageException("finding group " + ref, e);
            }
        }
        List<Long> ids = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT id, type_string FROM node_group WHERE label = ?"
                        + " ORDER BY type_string <> '" + GroupStore.CORE + "', type_string")) {
            s.setString(1, ref);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    ids.add(r.getLong(1));
                    types.add(r.getString(2));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("finding group " + ref, e);
        }
        if (ids.isEmpty()) {
            throw new NotFoundException("no group is labelled '" + ref + "'"
                    + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : ""));
        }
        if (ids.size() > 1 && !GroupStore.CORE.equals(types.getFirst())) {
            throw new ConflictException("groups of the types " + String.join(", ", types) + " are labelled '" + ref
                    + "': name the one to export by its uuid");
        }
        return ids.getFirst();
    }

    private long computer(String ref) {
        return computers
                .find(ref)
                .map(Computer::id)
                .orElseThrow(() -> new NotFoundException("no computer is labelled '" + ref + "'"
                        + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : "")));
    }

    private boolean exists(String sql, long id) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                return r.next();
            }
        } catch (SQLException e) {
            throw new StorageException("finding node " + id, e);
        }
    }

    /** Resolves one name of the query; one that names nothing is a 400 naming the parameter. */
    private static long inQuery(String parameter, Supplier<Long> resolve) {
        try {
            return resolve.get();
        } catch (NotFoundException e) {
            throw new InvalidInputException("parameter '" + parameter + "': " + e.getMessage());
        }
    }

    private static long[] ids(Set<Long> ids) {
        return ids.stream().mapToLong(Long::longValue).toArray();
    }
}
