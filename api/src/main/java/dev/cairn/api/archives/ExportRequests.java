package dev.cairn.api.archives;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.api.codes.CodeService;
import dev.cairn.api.computers.ComputerRefs;
import dev.cairn.api.groups.GroupService;
import dev.cairn.api.web.NodeRefs;
import dev.cairn.storage.Storage;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.views.NodeViews;

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
    public record Selection(
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

    private final NodeViews views;
    private final NodeRefs nodes;
    private final ComputerRefs computers;
    private final CodeService codes;
    private final GroupService groups;

    ExportRequests(Storage storage, NodeRefs nodes, ComputerRefs computers, CodeService codes, GroupService groups) {
        this.views = storage.nodes();
        this.nodes = nodes;
        this.computers = computers;
        this.codes = codes;
        this.groups = groups;
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
            s.groups().forEach(ref -> groupIds.add(inQuery("group", () -> groups.idOf(ref))));
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
            if (views.identity(pk).isPresent()) {
                return pk;
            }
            if (r.startsWith("pk:") || r.length() < 4) {
                throw new NotFoundException("no node has the PK " + pk);
            }
        }
        return nodes.id(r);
    }

    private long computer(String ref) {
        return computers
                .find(ref)
                .map(Computer::id)
                .orElseThrow(() -> new NotFoundException("no computer is labelled '" + ref + "'"
                        + (UUID_FORM.matcher(ref).matches() ? " or has that uuid" : "")));
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
