package dev.cairn.engine.testing;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import dev.cairn.engine.Engine;
import dev.cairn.storage.graph.InstalledCode;

/**
 * A real one-node SLURM cluster on this machine, started (and installed from Debian's packages
 * if missing) by {@code scheduler/slurm-one-node.sh}. It needs root; starting fails, and says
 * why, where the cluster cannot be had.
 */
public final class SlurmCluster implements AutoCloseable {

    static final Path DIR = Path.of(System.getProperty("java.io.tmpdir"), "cairn-slurm-it");

    private final String conf;

    private SlurmCluster(String conf) {
        this.conf = conf;
    }

    public static SlurmCluster start() throws Exception {
        String out = oneNode("start");
        return new SlurmCluster(out.lines()
                .filter(l -> l.startsWith("SLURM_CONF="))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("slurm-one-node.sh printed no SLURM_CONF: " + out))
                .substring("SLURM_CONF=".length()));
    }

    /** The cluster's configuration file: SLURM's commands need it in {@code SLURM_CONF}. */
    public String conf() {
        return conf;
    }

    /**
     * bash as a code on a computer of this cluster, reached by the local transport, whose scheduler is
     * {@code scheduler} ({@code core.slurm}, or {@code core.torque} through Slurm's Torque front end),
     * polled every 0.2 s.
     */
    public InstalledCode bash(Engine engine, String label, String scheduler, Path workdir) {
        long computer = EngineFixture.localComputer(
                engine,
                label,
                scheduler,
                workdir,
                Map.of(
                        "minimum_job_poll_interval",
                        0.2,
                        "transport_params",
                        Map.of("environment", Map.of("SLURM_CONF", conf))));
        return EngineFixture.bashOn(engine, computer);
    }

    @Override
    public void close() throws Exception {
        oneNode("stop");
    }

    private static String oneNode(String action) throws IOException, InterruptedException, URISyntaxException {
        Path script = Path.of(
                SlurmCluster.class.getResource("/scheduler/slurm-one-node.sh").toURI());
        Process p = new ProcessBuilder("bash", script.toString(), action, DIR.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("slurm-one-node.sh " + action + " failed (exit " + p.exitValue()
                    + "; its reasons are above): a one-node SLURM cluster needs root and Debian's slurmctld, slurmd and"
                    + " slurm-client packages");
        }
        return out;
    }
}
