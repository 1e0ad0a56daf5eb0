// A struct passed inout to helpers that update it, one returning early.
#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer In { ivec2 x[]; };
layout(std430, binding = 1) buffer Out { ivec4 y[]; };

struct Account {
    int balance;
    int overdrafts;
    int deposits;
};

void deposit(inout Account a, int amount) {
    if (amount <= 0) {
        return;
    }
    a.balance += amount;
    a.deposits++;
}

bool withdraw(inout Account a, int amount) {
    if (amount > a.balance + 100) {
        a.overdrafts++;
        return false;
    }
    a.balance -= amount;
    return true;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    Account acc = Account(0, 0, 0);
    int seed = x[i].x;
    int ok = 0;
    for (int k = 0; k < 10; k++) {
        int amount = ((seed >> k) & 255) - 64;
        if ((k & 1) == 0) {
            deposit(acc, amount);
        } else if (withdraw(acc, amount + (x[i].y & 63))) {
            ok++;
        }
    }
    y[i] = ivec4(acc.balance, acc.overdrafts, acc.deposits, ok);
}
