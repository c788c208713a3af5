//! The chess a network reads: how an engine describes a position
//! ([`position`]: the [`Position`](position::Position) trait, colours,
//! squares, pieces), a plain board implementing it ([`board`]), a board
//! kept as bitboards and as a piece code per square at once
//! ([`placement`]), and the attack sets of the threat features
//! ([`attacks`]).

pub mod attacks;
pub mod board;
pub mod placement;
pub mod position;
