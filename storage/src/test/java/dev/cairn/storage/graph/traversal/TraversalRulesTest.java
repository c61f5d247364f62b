package dev.cairn.storage.graph.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;

class TraversalRulesTest {

    /** The rule table of the reference, row by row: rule | DELETE (toggleable?) | EXPORT (toggleable?). */
    private static final String TABLE = """
        input_calc forward  | True (no)  | False (yes)
        input_calc backward | False (no) | True (no)
        create forward      | True (yes) | True (no)
        create backward     | True (no)  | True (yes)
        return forward      | False (no) | True (no)
        return backward     | True (no)  | False (yes)
        input_work forward  | True (no)  | False (yes)
        input_work backward | False (no) | True (no)
        call_calc forward   | True (yes) | True (no)
        call_calc backward  | True (no)  | True (yes)
        call_work forward   | True (yes) | True (no)
        call_work backward  | True (no)  | True (yes)
        """;

    private record Row(LinkType type, Direction direction, TraversalRule delete, TraversalRule export) {}

    private static List<Row> table() {
        return TABLE.lines()
                .map(line -> {
                    String[] cells = line.split("\\|");
                    String[] rule = cells[0].trim().split(" ");
                    LinkType type = LinkType.fromDbValue(rule[0]);
                    Direction direction = Direction.valueOf(rule[1].toUpperCase(Locale.ROOT));
                    return new Row(type, direction, cell(type, direction, cells[1]), cell(type, direction, cells[2]));
                })
                .toList();
    }

    private static TraversalRule cell(LinkType type, Direction direction, String cell) {
        String[] parts = cell.trim().split(" ");
        return new TraversalRule(
                type, direction, Boolean.parseBoolean(parts[0].toLowerCase(Locale.ROOT)), parts[1].equals("(yes)"));
    }

    @Test
    void tableCoversEveryLinkTypeInBothDirections() {
        assertEquals(12, table().size());
        assertEquals(
                EnumSet.allOf(LinkType.class),
                EnumSet.copyOf(table().stream().map(Row::type).toList()));
    }

    @Test
    void deleteRulesMatchTheTableRowByRow() {
        for (Row row : table()) {
            assertEquals(
                    row.delete(),
                    TraversalRules.DELETE.rule(row.type(), row.direction()),
                    row.type() + " " + row.direction());
        }
    }

    @Test
    void exportRulesMatchTheTableRowByRow() {
        for (Row row : table()) {
            assertEquals(
                    row.export(),
                    TraversalRules.EXPORT.rule(row.type(), row.direction()),
                    row.type() + " " + row.direction());
        }
    }

    @Test
    void defaultRulesFollowNothingAndAreAllToggleable() {
        for (TraversalRule rule : TraversalRules.DEFAULT.rules()) {
            assertFalse(rule.enabled(), rule.name());
            assertTrue(rule.toggleable(), rule.name());
        }
        assertEquals(12, TraversalRules.DEFAULT.toggleable().size());
    }

    @Test
    void rulesAreNamedAfterLinkTypeAndDirection() {
        assertEquals("create_forward", TraversalRules.DELETE.rules().get(0).name());
        assertEquals("create_backward", TraversalRules.DELETE.rules().get(1).name());
        assertEquals(
                TraversalRules.DELETE.rule(LinkType.CALL_WORK, Direction.BACKWARD),
                TraversalRules.DELETE.rule("call_work_backward"));
    }

    @Test
    void followedListsTheEnabledLinkTypesPerDirection() {
        assertEquals(
                EnumSet.of(
                        LinkType.INPUT_CALC,
                        LinkType.CREATE,
                        LinkType.INPUT_WORK,
                        LinkType.CALL_CALC,
                        LinkType.CALL_WORK),
                TraversalRules.DELETE.followed(Direction.FORWARD));
        assertEquals(
                EnumSet.of(LinkType.CREATE, LinkType.RETURN, LinkType.CALL_CALC, LinkType.CALL_WORK),
                TraversalRules.DELETE.followed(Direction.BACKWARD));
        assertEquals(
                EnumSet.of(LinkType.CREATE, LinkType.RETURN, LinkType.CALL_CALC, LinkType.CALL_WORK),
                TraversalRules.EXPORT.followed(Direction.FORWARD));
    }

    @Test
    void toggleableRulesOfEachSet() {
        assertEquals(
                List.of("create_forward", "call_calc_forward", "call_work_forward"),
                TraversalRules.DELETE.toggleable());
        assertEquals(
                List.of(
                        "create_backward",
                        "return_backward",
                        "input_calc_forward",
                        "input_work_forward",
                        "call_calc_backward",
                        "call_work_backward"),
                TraversalRules.EXPORT.toggleable());
    }

    @Test
    void withSwitchesOneRuleAndLeavesTheOriginalAlone() {
        TraversalRules keepOutputs = TraversalRules.DELETE.with("create_forward", false);
        assertFalse(keepOutputs.rule(LinkType.CREATE, Direction.FORWARD).enabled());
        assertTrue(keepOutputs.rule(LinkType.CREATE, Direction.FORWARD).toggleable());
        assertTrue(
                TraversalRules.DELETE.rule(LinkType.CREATE, Direction.FORWARD).enabled());
        for (TraversalRule rule : keepOutputs.rules()) {
            if (!rule.name().equals("create_forward")) {
                assertEquals(TraversalRules.DELETE.rule(rule.linkType(), rule.direction()), rule);
            }
        }
        assertEquals("DELETE", keepOutputs.name());
        assertEquals(keepOutputs, TraversalRules.DELETE.with(LinkType.CREATE, Direction.FORWARD, false));
        assertEquals(TraversalRules.DELETE, keepOutputs.with("create_forward", true));
    }

    @Test
    void togglingAFixedRuleNamesItAndListsTheToggleableOnes() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class, () -> TraversalRules.DELETE.with("input_calc_forward", false));
        assertEquals(
                "traversal rule input_calc_forward of the DELETE rules cannot be toggled (it is always on);"
                        + " the toggleable rules are create_forward, call_calc_forward, call_work_forward",
                e.getMessage());
        // Setting a fixed rule to the value it has is refused too: the caller misread the table.
        assertThrows(
                InvalidInputException.class,
                () -> TraversalRules.EXPORT.with(LinkType.CREATE, Direction.FORWARD, true));
    }

    @Test
    void anUnknownRuleNameListsTheRules() {
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> TraversalRules.EXPORT.with("create_sideways", true));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "no traversal rule 'create_sideways'; the rules are create_forward, create_backward, "),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("call_work_backward"), e.getMessage());
    }
}
