package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The end-to-end module reaches both services through the storage test-jar: a row written
 * to this class's database is found again through an id that travelled over this class's
 * virtual host, the way a task id travels from the api to a worker.
 */
class ServicesSmokeIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void idSentOverTheBrokerFindsTheRowInTheDatabase() throws Exception {
        long id;
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE task (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL)");
            try (ResultSet r = s.executeQuery("INSERT INTO task (name) VALUES ('smoke') RETURNING id")) {
                assertTrue(r.next());
                id = r.getLong(1);
            }
        }

        GetResponse delivery;
        try (var connection = broker.newConnection();
                Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            String queue =
                    channel.queueDeclare("tasks", true, false, false, null).getQueue();
            channel.basicPublish("", queue, null, Long.toString(id).getBytes(UTF_8));
            channel.waitForConfirmsOrDie(10_000);
            delivery = channel.basicGet(queue, false);
            assertNotNull(delivery, "the published id is in the queue");
            channel.basicAck(delivery.getEnvelope().getDeliveryTag(), false);
        }

        long received = Long.parseLong(new String(delivery.getBody(), UTF_8));
        try (Connection c = db.connect();
                PreparedStatement query = c.prepareStatement("SELECT name FROM task WHERE id = ?")) {
            query.setLong(1, received);
            try (ResultSet r = query.executeQuery()) {
                assertTrue(r.next(), "row " + received + " is in " + db.name());
                assertEquals("smoke", r.getString(1));
            }
        }
    }
}
