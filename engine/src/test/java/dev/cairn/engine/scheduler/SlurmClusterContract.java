package dev.cairn.engine.scheduler;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.cairn.engine.testing.SlurmCluster;
import dev.cairn.engine.transport.LocalTransport;
import dev.cairn.engine.transport.Transport;

/**
 * The contract on the one-node SLURM cluster of {@link SlurmCluster}, started once a class and reached
 * through a local transport that names its configuration in {@code SLURM_CONF}: the set-up of the SLURM
 * scheduler's test and of the PBS scheduler's, which drives Slurm's Torque front end on the same cluster.
 */
abstract class SlurmClusterContract extends SchedulerContract {

    static SlurmCluster cluster;
    static LocalTransport transport;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SlurmCluster.start();
        transport = new LocalTransport(Map.of("SLURM_CONF", cluster.conf()));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (transport != null) {
            transport.close();
        }
        cluster.close();
    }

    @Override
    protected Transport transport() {
        return transport;
    }

    @Override
    protected String neverSubmitted() {
        return "999999";
    }
}
