#!/usr/bin/env python3
"""Writes the planning cases of this folder (NAME.CASE.dp and NAME.CASE.expect).

Usage: make-cases.py DEVPLAN   (from anywhere; writes beside this script)

The cases of each TVM test are the same script but for the names (README.md,
"Files"); what a case expects is `same module`, except where devplan's plan
differs from TVM's on purpose and in the controls, where it is the first
difference as DEVPLAN prints it now: review those with `git diff` before
committing, since this script takes DEVPLAN's word for them. The modules
(.relay) and the .pending markers are not touched.
"""
import os, subprocess, sys, textwrap

def comment(text):
    return '\n'.join('# ' + l for l in textwrap.wrap(text, 72)) + '\n'

if len(sys.argv) != 2:
    sys.exit(__doc__)
DEVPLAN = os.path.abspath(sys.argv[1])
os.chdir(os.path.dirname(os.path.abspath(__file__)))
TESTS = ['plain', 'left_add_on_cpu', 'left_add_on_cpu_via_copy', 'left_add_on_cpu_via_copy_as_map',
         'both_adds_on_cpu', 'sharing', 'let_on_cpu', 'func_param_on_cpu', 'func_result_on_cpu',
         'higher_order', 'function_in_tuple', 'device_copy', 'shape_of', 'alloc_storage',
         'alloc_tensor', 'reshape_tensor', 'dynamic_input', 'redundant_annotation', 'annotate_expr',
         'annotate_all', 'conv_network', 'tuple_get_item', 'propogation', 'fusible_network',
         'unpropagatable_graph', 'conditional', 'global', 'ref', 'adt', 'free_on_device', 'lowered',
         'stack_overflow', 'primitive', 'conflicated_inputs']
assert len(TESTS) == 34
DELIBERATE = {
    'sharing': 'one copy per value and destination (SPEC [P2]): TVM copies the add once per use',
    'redundant_annotation': 'one copy per value and destination (SPEC [P2]): TVM copies the add once per use',
    'propogation': 'one copy per value and destination (SPEC [P2]): TVM copies the first negative once per use',
    'conflicated_inputs': "the conflict home rule (SPEC §3.2): %b lives on the fallback GPU, where a consumer reads it, and is copied to the CPU; TVM keeps it where its walk meets it first, the CPU, and copies it to the GPU",
}
DEFAULT_FIXPOINT = {
    'sharing': "devplan shares the fixed on_device of a value within a scope, so the two on_device wrappers of TVM's expected module, the same value on the same device, become one under the two device_copy calls the module writes",
    'redundant_annotation': "devplan shares the fixed on_device of a value within a scope, so TVM's two on_device wrappers of the add become one under the two device_copy calls the module writes",
    'propogation': "devplan shares the fixed on_device of a value within a scope, so TVM's two on_device wrappers of the first negative become one under the two device_copy calls the module writes",
    'conflicated_inputs': None,
}

RUN = {n: '' for n in ['plain', 'left_add_on_cpu', 'left_add_on_cpu_via_copy', 'both_adds_on_cpu',
                        'sharing', 'let_on_cpu', 'func_param_on_cpu', 'func_result_on_cpu',
                        'higher_order', 'function_in_tuple', 'device_copy', 'reshape_tensor',
                        'redundant_annotation', 'annotate_expr', 'annotate_all', 'tuple_get_item',
                        'propogation', 'fusible_network', 'unpropagatable_graph', 'conditional',
                        'global', 'adt', 'conflicated_inputs']}
RUN['shape_of'] = ' x=random:1:(5,7)'
RUN['dynamic_input'] = ' x0=random:1:(5,7) x1=random:2:(5,7)'

def header(name):
    return ("# TVM v0.14.0 tests/python/relay/test_pass_plan_devices.py, test_%s\n"
            "# (README.md). Targets llvm and cuda, fallback GPU, as TVM's test's\n"
            "# CompilationConfig; meta[VirtualDevice][i] as its metatable.\n" % name)

def run(lines):
    p = subprocess.run([DEVPLAN, '-b', '-n'] + sum([['-c', l] for l in lines], []), capture_output=True, text=True, env=dict(os.environ, NO_COLOR='1'))
    return p.returncode, p.stdout + p.stderr

def same_line(a, b):
    return "same module: %s after core and '%s' are the same graphs on the same devices" % (a, b)

def diff_lines(out):
    ls = out.splitlines()
    i = [k for k, l in enumerate(ls) if l.startswith('different:')][-1]
    return ls[i:i + 2]

def write(name, case, dp, expect):
    open('%s.%s.dp' % (name, case), 'w').write(dp)
    open('%s.%s.expect' % (name, case), 'w').write(expect)

for n in TESTS:
    if n == 'primitive':
        for case, policy in (('tvm', 'set policy tvm\n'), ('default', '')):
            write(n, case, header(n) +
                  "# TVM's test only checks that PlanDevices accepts the virtual_device\n"
                  "# annotations on Primitive=1 functions (whose bodies it does not\n"
                  "# plan): so here, planning succeeds and the plan verifies. Its two\n"
                  "# VirtualDevices have a memory scope but no device (no text names\n"
                  "# such a device), so they constrain nothing.\n"
                  "set fallback cuda:0\n%sload primitive.relay\nplan\nverify\n" % policy,
                  "all phases done\nverify: every node has a device and every cross-device edge has a copy\n")
        continue
    exp = n + '.expected.relay'
    # tvm: the input planned is TVM's expected module
    extra = ''
    extra_expect = ''
    if n == 'left_add_on_cpu_via_copy_as_map':
        extra = ("# and the devices TVM's RecoverVirtualDeviceMap gives each node (the\n"
                 "# test's expected_map), which placement lists and verify checks\n"
                 "placement\n")
        extra_expect = ("@main param %a cpu:0\n@main param %b cpu:0\n@main param %c cuda:0\n"
                        "@main param %d cuda:0\n@main bind %0 cpu:0\n@main bind %1 cuda:0\n"
                        "@main bind %2 cuda:0\n@main result cuda:0\n"
                        "@main copy %0 cpu:0 -> cuda:0 140\n")
    write(n, 'tvm', header(n) +
          "# TVM's first check under `set policy tvm`: planning the input gives TVM's\n"
          "# expected module (the same graphs, every node on the same device as TVM\n"
          "# reads it off the text; names and types aside).\n"
          "set fallback cuda:0\nset policy tvm\nload %s.relay\nplan\ndiff --module %s\n%s" % (n, exp, extra),
          same_line(n + '.relay', exp) + '\n' + extra_expect)
    write(n, 'fixpoint', header(n) +
          "# TVM's second check under `set policy tvm`: planning TVM's expected\n"
          "# module gives it back unchanged.\n"
          "set fallback cuda:0\nset policy tvm\nload %s\nplan\ndiff --module %s\n" % (exp, exp),
          same_line(exp, exp) + '\n')
    if n in RUN:
        write(n, 'run', header(n) +
              comment("TVM's third check, when a GPU is there (eval_and_assert): the module "
                      "TVM plans runs and gives the numbers of its NumPy reference. Here: the "
                      "plan under `set policy tvm` runs (on cuda:0, or its emulator) and "
                      "gives the numbers of the same program run on the cpu alone.") +
              "set fallback cuda:0\nset policy tvm\nload %s.relay\nplan\ncompare%s\n" % (n, RUN[n]),
              "~ compare: PASS\n")
    if n not in DELIBERATE:
        write(n, 'default', header(n) +
              "# Under devplan's default policy (copy) too: the input plans to TVM's\n"
              "# expected module, which is a fixpoint.\n"
              "set fallback cuda:0\nload %s.relay\nplan\ndiff --module %s\nload %s\nplan\ndiff --module %s\n" % (n, exp, exp, exp),
              same_line(n + '.relay', exp) + '\n' + same_line(exp, exp) + '\n')
        continue
    dv = n + '.devplan.relay'
    rc, out = run(['set fallback cuda:0', 'load %s.relay' % n, 'plan', 'diff --module %s' % exp])
    assert rc == 1, out
    dl = diff_lines(out)
    write(n, 'default', header(n) +
          comment("Under devplan's default policy (copy) the plan differs from TVM's on "
                  "purpose: %s. devplan's answer is %s, a fixpoint; the last command shows "
                  "the first difference from TVM's and fails (exit status 1)." % (DELIBERATE[n], dv)) +
          "set fallback cuda:0\nload %s.relay\nplan\ndiff --module %s\nload %s\nplan\ndiff --module %s\n"
          "load %s.relay\nplan\ndiff --module %s\n" % (n, dv, dv, dv, n, exp),
          "# exit 1\n" + same_line(n + '.relay', dv) + '\n' + same_line(dv, dv) + '\n' + '\n'.join(dl) + '\n')
    rc, out = run(['set fallback cuda:0', 'load %s' % exp, 'plan', 'diff --module %s' % exp])
    why = DEFAULT_FIXPOINT[n]
    if why is None:
        assert rc == 0, out
        write(n, 'default_fixpoint', header(n) +
              "# Under devplan's default policy, TVM's expected module is a fixpoint too:\n"
              "# its copy of %%b is the user's, and planning keeps it.\n"
              "set fallback cuda:0\nload %s\nplan\ndiff --module %s\n" % (exp, exp),
              same_line(exp, exp) + '\n')
    else:
        assert rc == 1, out
        write(n, 'default_fixpoint', header(n) +
              comment("Under devplan's default policy, TVM's expected module is not a fixpoint, "
                      "on purpose: %s. TVM reads both the same; the command shows the "
                      "difference and fails." % why) +
              "set fallback cuda:0\nload %s\nplan\ndiff --module %s\n" % (exp, exp),
              "# exit 1\n" + '\n'.join(diff_lines(out)) + '\n')

# A control: the comparison sees devices. Under fallback cpu:0 test_plain's
# plan has TVM's graph (no copy either way) but every node on the cpu.
rc, out = run(['set fallback cpu:0', 'load plain.relay', 'plan', 'diff --module plain.expected.relay'])
assert rc == 1, out
write('plain', 'control', header('plain') +
      comment("A control, not TVM's: under fallback cpu:0 the plan of test_plain has "
              "the graph of TVM's expected module (nothing to copy) but every node on "
              "the cpu, and diff --module must say so: a comparison blind to devices "
              "fails this case.") +
      "set fallback cpu:0\nload plain.relay\nplan\ndiff --module plain.expected.relay\n",
      "# exit 1\n" + '\n'.join(diff_lines(out)) + '\n')

# A control: the comparison sees attributes. conv_network.control.relay is
# TVM's expected module with one attribute changed.
rc, out = run(['set fallback cuda:0', 'set policy tvm', 'load conv_network.relay', 'plan', 'diff --module conv_network.control.relay'])
assert rc == 1, out
write('conv_network', 'control', header('conv_network') +
      comment("A control, not TVM's: conv_network.control.relay is TVM's expected module "
              "with the last convolution's channels=64 made channels=32, and diff --module "
              "must say so: a comparison blind to attributes fails this case.") +
      "set fallback cuda:0\nset policy tvm\nload conv_network.relay\nplan\ndiff --module conv_network.control.relay\n",
      "# exit 1\n" + '\n'.join(diff_lines(out)) + '\n')

# A control: the comparison reads every node's device off the text, through
# the function's virtual_device, which TVM's test leaves out of this module.
rc, out = run(['set fallback cuda:0', 'set policy tvm', 'load conflicated_inputs.relay', 'plan', 'diff --module conflicated_inputs.tvm_text.relay'])
assert rc == 1, out
write('conflicated_inputs', 'control', header('conflicated_inputs') +
      comment("A control, not TVM's: conflicated_inputs.tvm_text.relay is TVM's expected "
              "module as its test writes it, without @main's virtual_device, which "
              "TVM's structural_equal does not compare. TVM's PlanDevices gives @main "
              "the GPU, and reads every node of its body through it, so the plan "
              "differs from that text in the devices TVM reads off it: a comparison "
              "blind to those devices fails this case.") +
      "set fallback cuda:0\nset policy tvm\nload conflicated_inputs.relay\nplan\ndiff --module conflicated_inputs.tvm_text.relay\n",
      "# exit 1\n" + '\n'.join(diff_lines(out)) + '\n')
