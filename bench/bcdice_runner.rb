# frozen_string_literal: true

# BCDice's side of `python -m bench dice --bcdice PATH`: the corpus (JSON on stdin) evaluated the way
# BCDice's own test runner does (test/test_game_system_commands.rb: a DiceBot per command, a
# randomizer that hands out the recorded dice), first once to check every answer, then timed in
# rounds. Times are CPU time inside Ruby, start-up and loading excluded. Prints one JSON object.
#
# Usage: ruby -I GENERATED -I PATH/lib bench/bcdice_runner.rb < corpus.json

require "json"
require "bcdice"

# BCDice's test RandomizerMock, without its check of the sides (the corpus was checked once).
class RecordedRandomizer < BCDice::Randomizer
  def initialize(rands)
    super()
    @rands = rands
    @next = 0
  end

  def random(_sides)
    value = @rands[@next]
    raise "the recorded dice ran out" if value.nil?

    @next += 1
    value
  end
end

def evaluate(input, rands)
  game_system = BCDice::GameSystem::DiceBot.new(input)
  game_system.randomizer = RecordedRandomizer.new(rands)
  game_system.eval
end

def cpu_time
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

request = JSON.parse($stdin.read)
cases = request.fetch("cases").map { |c| [c.fetch("input"), c.fetch("values"), c.fetch("output")] }

matched = cases.count do |input, values, output|
  result = evaluate(input, values)
  (result.nil? ? "" : result.text) == output
end

rates = Array.new(request.fetch("rounds")) do
  runs = 0
  start = cpu_time
  while (elapsed = cpu_time - start) < request.fetch("min_seconds") || runs.zero?
    cases.each { |input, values, _| evaluate(input, values) }
    runs += 1
  end
  runs * cases.size / elapsed
end

puts JSON.generate({ "version" => BCDice::VERSION, "ruby" => RUBY_VERSION, "matched" => matched, "rates" => rates })
