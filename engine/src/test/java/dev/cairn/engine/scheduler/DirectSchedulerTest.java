package dev.cairn.engine.scheduler;

import static dev.cairn.engine.scheduler.JobTemplateTest.NAME;
import static dev.cairn.engine.scheduler.JobTemplateTest.WORKDIR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class DirectSchedulerTest {

    final DirectScheduler direct = new DirectScheduler();

    @Test
    void theScriptRedirectsItsOwnStreamsAndCarriesTheJobName() {
        String script = direct.submitScript(SlurmSchedulerTest.everything());
        assertEquals("""
            #!/bin/bash
            #CAIRN --job-name=cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1

            cd /scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60 || exit 1
            exec > _scheduler-stdout.txt 2> _scheduler-stderr.txt
            export OMP_NUM_THREADS=4
            printf '%s\\n' "$$" > _cairn_job_started.tmp && mv -f _cairn_job_started.tmp _cairn_job_started
            export GREETING='hello world $HOME'
            export OMP_PROC_BIND=close

            module load qe/7.2

            mpirun -np 16 pw.x -nk 2 < aiida.in > aiida.out
            echo 'it'"'"'s done'

            echo finished
            """, script);
    }

    @Test
    void withoutTheSystemEnvironmentTheScriptStartsAgainWithAnEmptyOne() {
        String script = direct.submitScript(JobTemplateTest.serial().withEnvironment(Map.of(), false));
        assertTrue(
                script.contains("|| exit 1\n[ -n \"${CAIRN_CLEAN_ENV:-}\" ] || exec env -i CAIRN_CLEAN_ENV=1"), script);
    }

    @Test
    void submitStartsTheScriptInItsOwnSessionAndReadsThePid() {
        var t = new ScriptedTransport().reply("31337\n");
        assertEquals("31337", direct.submit(t, WORKDIR, "_cairn_submit.sh"));
        assertEquals(
                "name=; while IFS= read -r line; do case $line in '#CAIRN --job-name='*)"
                        + " name=${line#'#CAIRN --job-name='}; break ;; esac; done < _cairn_submit.sh; launch=nohup;"
                        + " command -v setsid > /dev/null 2>&1 && launch=setsid; $launch bash _cairn_submit.sh \"$name\""
                        + " < /dev/null > /dev/null 2>&1 & echo $!",
                t.onlyCommand());
        assertEquals(WORKDIR, t.workdirs.getFirst());
        var e = assertThrows(
                SchedulerException.class,
                () -> direct.submit(new ScriptedTransport().reply(""), WORKDIR, "_cairn_submit.sh"));
        assertTrue(e.getMessage().startsWith("direct: cannot read the process id from 'name=; while"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> direct.submit(new ScriptedTransport(), WORKDIR, "../x.sh"));
    }

    @Test
    void onLinuxOneCommandReadsEveryJobFromProcAndAbsentProcessesAreDone() {
        // /proc/<pid>/stat after "pid (comm) ": state, ppid, ..., the start time (ticks since boot) 20th
        var t = new ScriptedTransport().reply("""
            uptime 38773.27
            4211 S 1 4211 4211 0 -1 4194368 103 0 0 0 0 0 0 0 20 0 1 0 3871127 4849664 498
            4230 Z 1 4230 4230 0 -1 4194368 103 0 0 0 0 0 0 0 20 0 1 0 3877300 0 0
            """);
        Map<String, JobInfo> jobs = direct.poll(t, List.of("4211", "4230", "4299"));
        assertEquals(
                "if [ -r /proc/self/stat ]; then read -r up idle < /proc/uptime; echo \"uptime $up\";"
                        + " for p in 4211 4230 4299; do s=; { read -r s < /proc/$p/stat; } 2> /dev/null; [ -z \"$s\" ] ||"
                        + " echo \"$p ${s##*) }\"; done; else ps -o pid=,stat=,etime= -p 4211,4230,4299; fi",
                t.onlyCommand());
        assertEquals(new JobInfo("4211", JobState.RUNNING, "S", null, 62L, null, null, null), jobs.get("4211"));
        assertEquals(JobState.DONE, jobs.get("4230").state(), "a zombie has ended");
        assertEquals(JobInfo.missing("4299"), jobs.get("4299"));
        var garbled = new ScriptedTransport().reply("uptime 38773.27\n4211 S 1\n");
        assertThrows(SchedulerException.class, () -> direct.poll(garbled, List.of("4211")));
    }

    @Test
    void elsewhereOnePsForAllJobsAndAbsentProcessesAreDone() {
        var t = new ScriptedTransport().reply("""
              4211 Ss       01:02
              4215 Ts    2-01:00:00
              4230 Zs          00:07
            """);
        Map<String, JobInfo> jobs = direct.poll(t, List.of("4211", "4215", "4230", "4299"));
        assertTrue(
                t.onlyCommand().endsWith("else ps -o pid=,stat=,etime= -p 4211,4215,4230,4299; fi"), t.onlyCommand());
        assertEquals(new JobInfo("4211", JobState.RUNNING, "Ss", null, 62L, null, null, null), jobs.get("4211"));
        assertEquals(JobState.SUSPENDED, jobs.get("4215").state());
        assertEquals(176_400L, jobs.get("4215").wallTimeSeconds());
        assertEquals(JobState.DONE, jobs.get("4230").state(), "a zombie has ended");
        assertEquals(JobInfo.missing("4299"), jobs.get("4299"));
    }

    @Test
    void psFindingNothingIsAnEmptyListingButAnErrorIsAnError() {
        var none = new ScriptedTransport().reply(1, "", "");
        assertEquals(JobInfo.missing("4211"), direct.poll(none, List.of("4211")).get("4211"));
        var broken = new ScriptedTransport().reply(1, "", "error: unsupported option (BSD syntax)\n");
        var e = assertThrows(SchedulerException.class, () -> direct.poll(broken, List.of("4211")));
        assertTrue(
                e.getMessage()
                        .endsWith("-p 4211; fi' failed with exit code 1: stderr: error: unsupported"
                                + " option (BSD syntax)"),
                e.getMessage());
    }

    @Test
    void findByNameLooksForBashRunningAScriptWithTheJobNameAsItsArgument() {
        var t = new ScriptedTransport().reply("""
               812   812 Ss          10:01 -bash
              4211  4211 Ss          00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
              4212  4211 S           00:03 sleep 30
              4300  4300 Zs          00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2
              4301   812 R+          00:00 grep cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2
            """);
        assertEquals(Optional.of("4211"), direct.findByName(t, NAME));
        assertEquals("ps -o pid=,pgid=,stat=,etime=,args= -u \"$(id -u)\"", t.onlyCommand());
        var again = new ScriptedTransport().reply("""
              4300  4300 Zs          00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2
              4301   812 R+          00:00 grep cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2
            """);
        assertEquals(
                Optional.empty(),
                direct.findByName(again, "cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2"),
                "a zombie is over, and grep is not the job");
    }

    @Test
    void findByNameTakesTheJobNotItsSubshellNorItsCleanEnvironmentStart() {
        // a subshell of the job listed first, and the job while it starts itself again under env -i
        var t = new ScriptedTransport().reply("""
              4216  4211 S           00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
              4211  4211 Ss          00:03 env -i CAIRN_CLEAN_ENV=1 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
            """);
        assertEquals(Optional.of("4211"), direct.findByName(t, NAME));
        var noSetsid = new ScriptedTransport().reply("""
              4211   700 S           00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
              4216   700 S           00:03 bash _cairn_submit.sh cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
            """);
        assertEquals(Optional.of("4211"), direct.findByName(noSetsid, NAME), "without setsid: the first bash");
    }

    @Test
    void cancelKillsTheProcessGroup() {
        var t = new ScriptedTransport().reply("");
        direct.cancel(t, "4211");
        assertEquals("kill -TERM -4211 2> /dev/null || kill -TERM 4211", t.onlyCommand());
        var gone = new ScriptedTransport().reply(1, "", "/bin/sh: 1: kill: No such process\n");
        var e = assertThrows(SchedulerException.class, () -> direct.cancel(gone, "4211"));
        assertTrue(
                e.getMessage().endsWith("failed with exit code 1: stderr: /bin/sh: 1: kill: No such process"),
                e.getMessage());
    }

    @Test
    void psStatesAsAiidaMapsThem() {
        assertEquals(JobState.RUNNING, DirectScheduler.state("D"));
        assertEquals(JobState.RUNNING, DirectScheduler.state("I<"));
        assertEquals(JobState.SUSPENDED, DirectScheduler.state("t"));
        assertEquals(JobState.DONE, DirectScheduler.state("X"));
        assertEquals(JobState.UNDETERMINED, DirectScheduler.state("?"));
    }
}
