package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.LinkType.NodeClass;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@link LinkType} is where the kinds of node each link type joins are written; the database says them
 * once more, for its link guard and an archive import's checks ({@code link_joins}, migration V19), and
 * lists the types in {@code link.type}'s check. These tests hold the database to the enum.
 */
class LinkJoinsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void theDatabaseJoinsExactlyTheKindsLinkTypeAllows() throws SQLException {
        List<String> disagreements = new ArrayList<>();
        try (Connection c = database.connection();
                PreparedStatement joins = c.prepareStatement("SELECT link_joins(?, ?, ?)")) {
            for (LinkType type : LinkType.values()) {
                for (NodeClass input : NodeClass.values()) {
                    for (NodeClass output : NodeClass.values()) {
                        boolean allowed = type.source() == input && type.target() == output;
                        if (joins(joins, type.dbValue(), nodeType(input), nodeType(output)) != allowed) {
                            disagreements.add(type + " " + input + " -> " + output + ": LinkType says " + allowed);
                        }
                    }
                }
            }
            assertEquals(List.of(), disagreements);
            assertFalse(joins(joins, "create", "processes.calculation.x.X.", "data.core.int.Int."));
            assertFalse(joins(joins, "created", nodeType(NodeClass.CALCULATION), nodeType(NodeClass.DATA)));
        }
    }

    @Test
    void theLinkTableTakesExactlyTheTypesOfLinkType() throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT pg_get_constraintdef(oid) FROM pg_constraint"
                        + " WHERE conrelid = 'link'::regclass AND conname = 'link_type_check'")) {
            r.next();
            Set<String> inCheck = new TreeSet<>();
            Matcher quoted = Pattern.compile("'([a-z_]+)'").matcher(r.getString(1));
            while (quoted.find()) {
                inCheck.add(quoted.group(1));
            }
            assertEquals(
                    Arrays.stream(LinkType.values())
                            .map(LinkType::dbValue)
                            .collect(Collectors.toCollection(TreeSet::new)),
                    inCheck);
        }
    }

    private static String nodeType(NodeClass kind) {
        return kind.typePrefix() + "sample.Sample.";
    }

    private static boolean joins(PreparedStatement joins, String type, String input, String output)
            throws SQLException {
        joins.setString(1, type);
        joins.setString(2, input);
        joins.setString(3, output);
        try (ResultSet r = joins.executeQuery()) {
            r.next();
            return r.getBoolean(1);
        }
    }
}
