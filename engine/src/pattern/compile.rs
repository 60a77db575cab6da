//! Syntax tree → program (Thompson's construction): a class consumes a character, `Split`
//! forks, `Jump` continues elsewhere, `Match` ends. Counted repetitions are unrolled, which
//! is why the program size is capped ([`super::MAX_PROGRAM`]).

use super::parse::Node;
use super::{Inst, MAX_PROGRAM};

const TOO_LARGE: &str = "the pattern is too large";

pub(super) fn compile(node: &Node) -> Result<Vec<Inst>, &'static str> {
    let mut c = Compiler { program: Vec::new(), visits: 0 };
    c.emit(node)?;
    c.program.push(Inst::Match);
    Ok(c.program)
}

struct Compiler {
    program: Vec<Inst>,
    /// Nodes emitted so far: bounds the work for repetitions of empty nodes (`(){99999999}`),
    /// which add no instructions.
    visits: usize,
}

impl Compiler {
    fn push(&mut self, inst: Inst) -> usize {
        self.program.push(inst);
        self.program.len() - 1
    }

    /// Points the second branch of the `Split` at `at` to the end of the program so far.
    fn patch(&mut self, at: usize) {
        let end = self.program.len();
        match &mut self.program[at] {
            Inst::Split(_, b) | Inst::Jump(b) => *b = end,
            _ => {}
        }
    }

    fn emit(&mut self, node: &Node) -> Result<(), &'static str> {
        self.visits += 1;
        if self.program.len() > MAX_PROGRAM || self.visits > 4 * MAX_PROGRAM {
            return Err(TOO_LARGE);
        }
        match node {
            Node::Class(ranges) => {
                self.push(Inst::Class(ranges.clone().into_boxed_slice()));
            }
            Node::Look(look) => {
                self.push(Inst::Look(*look));
            }
            Node::Concat(items) => {
                for item in items {
                    self.emit(item)?;
                }
            }
            Node::Alt(branches) => {
                // split(b1, next) b1 jump(end) next: split(b2, …) … bn end:
                let mut jumps = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 == branches.len() {
                        self.emit(branch)?;
                    } else {
                        let split = self.push(Inst::Split(self.program.len() + 1, 0));
                        self.emit(branch)?;
                        jumps.push(self.push(Inst::Jump(0)));
                        self.patch(split);
                    }
                }
                for j in jumps {
                    self.patch(j);
                }
            }
            Node::Repeat(sub, min, max) => {
                for _ in 0..*min {
                    self.emit(sub)?;
                }
                match max {
                    // loop: split(body, end) body jump(loop) end:
                    None => {
                        let split = self.push(Inst::Split(self.program.len() + 1, 0));
                        self.emit(sub)?;
                        self.push(Inst::Jump(split));
                        self.patch(split);
                    }
                    // Each further copy optional: split(body, end) body end:
                    Some(max) => {
                        for _ in *min..*max {
                            let split = self.push(Inst::Split(self.program.len() + 1, 0));
                            self.emit(sub)?;
                            self.patch(split);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
