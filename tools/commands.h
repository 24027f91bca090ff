// Every subcommand the tool has, in the order `crashtest --help` lists them. Adding a subcommand is one file
// (cmd_NAME.cpp defining NameCommand()) plus one line here and one in main.cpp's table.
#pragma once

#include "command.h"

namespace crashtest {

const Command& DevicesCommand();
const Command& CheckCommand();
const Command& StatsCommand();
const Command& RunCommand();
const Command& DecodeCommand();

}  // namespace crashtest
